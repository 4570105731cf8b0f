import type { Gatehouse } from './gatehouse.js';
import type { Denied } from './middleware.js';

/** Gatehouse's hosted pages (docs/hosted-ui.md). */
export type HostedPage = 'login' | 'register' | 'recovery' | 'settings';

/**
 * The address of a hosted page of the app's project: `<baseUrl>/ui/<page>?project_id=…` and the
 * parameters given (`redirect_uri`, `session_id`, `aal`, `lang`…); undefined ones are left out.
 */
export function hostedPageUrl(gatehouse: Gatehouse, page: HostedPage, params: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams({ project_id: gatehouse.options.projectId });
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
  return `${gatehouse.options.baseUrl.replace(/\/+$/, '')}/ui/${page}?${query}`;
}

/**
 * Where to send a browser that `requireSession` refused because its session lacks a level (403):
 * the hosted sign-in page stepping up that same session (`session_id`) and told the level
 * (`aal`), so that it says why it asks, offers only methods that reach the level, and says what
 * would do when the proof given falls short (instead of a silent loop back to the app).
 * `redirectUri` receives the handoff token, as after any sign-in. Undefined for other refusals.
 */
export function stepUpUrl(gatehouse: Gatehouse, denied: Denied, redirectUri: string): string | undefined {
  if (denied.status !== 403) return undefined;
  const { session_id: sessionId, required_assurance_level: required } = denied.body.details;
  if (typeof sessionId !== 'string') return undefined;
  const aal = typeof required === 'string' ? /^urn:nist:aal:([12])$/.exec(required)?.[1] : undefined;
  return hostedPageUrl(gatehouse, 'login', { session_id: sessionId, aal, redirect_uri: redirectUri });
}
