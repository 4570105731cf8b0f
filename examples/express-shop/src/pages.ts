const esc = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface Viewer {
  email?: string;
  aal: string[];
}

/** One page of the shop: plain HTML, no script. */
export function page(title: string, body: string, viewer?: Viewer): string {
  const nav = viewer
    ? `<p>Signed in as <strong>${esc(viewer.email ?? 'you')}</strong> (${esc(viewer.aal.join(', ') || 'no level')}) · <a href="/account">Account</a> · <a href="/account/email">Change e-mail</a></p>
       <form method="post" action="/logout"><button type="submit">Sign out</button></form>`
    : `<p><a href="/login">Sign in</a> · <a href="/signup">Create an account</a></p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Express shop</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5}label{display:block;margin:.5rem 0}</style></head>
<body><header><a href="/">Express shop</a>${nav}</header><main><h1>${esc(title)}</h1>${body}</main></body></html>`;
}

export { esc };
