/**
 * A fetch that keeps cookies between calls, for code outside a browser (a backend that runs flows
 * for its users, tests): the flow state travels in the `_zflow` cookie. Host-only and simple on
 * purpose: one jar per end user, never shared between users.
 */
export function cookieJarFetch(base: (request: Request) => Promise<Response> = (request) => fetch(request)) {
  const jar = new Map<string, string>();
  const send = async (request: Request): Promise<Response> => {
    if (jar.size > 0) {
      const sent = request.headers.get('cookie');
      const ours = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
      request.headers.set('cookie', sent ? `${sent}; ${ours}` : ours);
    }
    const response = await base(request);
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]) <= Date.now()));
      if (value === '' || expired) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  };
  return Object.assign(send, { cookies: jar });
}
