import type { FastifyRequest } from 'fastify';
import { AppError } from '../core/errors.js';
import type { Lang } from '../projects/ui-texts.js';
import { pickLang } from './i18n.js';

/** The hosted pages; each starts a flow of the purpose of the same name unless `?purpose=` says otherwise. */
export const FLOW_PAGES = ['login', 'register', 'recovery', 'settings'] as const;
export type FlowPage = (typeof FLOW_PAGES)[number];

/**
 * What the pages carry from URL to URL (DESIGN §4.15): none of it is secret, all of it is checked
 * here, and the runtime checks again (redirect allow-list, project, flow ownership).
 */
export interface Entry {
  project_id?: string;
  purpose?: string;
  app_id?: string;
  redirect_uri?: string;
  authorization_id?: string;
  resume_uri?: string;
  lang?: Lang;
  /** OIDC `login_hint`: prefills the identifier field of the first step */
  login_hint?: string;
  /** an app's existing session to step up or re-authenticate (a login flow started with `session_id`) */
  session_id?: string;
  /** the latest flow id (after a start or submit) */
  flow?: string;
  /** a completion page: `signed_in` or the name of a `show` step */
  done?: string;
  /** a note above the step, one of NOTICES (`password_changed`: a recovery just set a new password) */
  notice?: string;
  /**
   * The assurance level the app asked for (`1` or `2`: `urn:nist:aal:<n>`), e.g. beside
   * `session_id` when a session is too weak: the page says so and offers only methods that reach it.
   */
  aal?: string;
}

/** The notes a page can show above its step, with their text keys; any other `notice` is ignored. */
export const NOTICES: Record<string, string> = { password_changed: 'ui.notice.password_changed' };

const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Where a login flow may hand its handoff token back: the OIDC authorization (/auth/authorize) and the device page (/ui/device, RFC 8628). */
export const RESUME_PATHS = ['/auth/authorize/resume', '/ui/device/resume'] as const;
const SLUG = /^[a-z0-9_-]{1,50}$/;
// Printable, no control characters: these values end up in URLs and in the runtime's input.
const PRINTABLE = /^[^\u0000-\u001f\u007f]+$/;
// The levels sessions report (src/sessions/levels.ts); anything else asks for what no sign-in gives.
const LEVEL = /^[12]$/;

function single(raw: unknown): string | undefined {
  const value = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function invalid(parameter: string): AppError {
  return new AppError('req.invalid', 'The page address is invalid.', { errors: [{ path: `querystring/${parameter}`, message: 'is invalid' }] });
}

/** Reads and checks the query of a page; `issuer` is Gatehouse's own origin (resume_uri must point back to it). */
export function readEntry(query: unknown, acceptLanguage: string | undefined, issuer: string): Entry & { lang: Lang } {
  const q = (query ?? {}) as Record<string, unknown>;
  const entry: Entry & { lang: Lang } = { lang: pickLang(single(q.lang), acceptLanguage) };
  const take = (name: keyof Entry, pattern: RegExp, max: number) => {
    const value = single(q[name]);
    if (value === undefined) return;
    if (value.length > max || !pattern.test(value)) throw invalid(name);
    (entry as unknown as Record<string, string>)[name] = value;
  };
  take('project_id', ID, 64);
  take('purpose', SLUG, 50);
  take('app_id', PRINTABLE, 200);
  take('redirect_uri', PRINTABLE, 2048);
  take('authorization_id', ID, 64);
  take('resume_uri', PRINTABLE, 2048);
  take('session_id', ID, 64);
  take('login_hint', PRINTABLE, 254);
  take('flow', ID, 64);
  take('done', SLUG, 50);
  take('notice', SLUG, 50);
  take('aal', LEVEL, 1);
  if (single(q.lang) !== undefined) entry.lang = pickLang(single(q.lang), undefined);
  // The handoff token goes to resume_uri: only Gatehouse's own resume endpoints may receive it.
  // Compared as URLs (`http://localhost:80/…` is `http://localhost/…`), against the public URL only.
  if (entry.resume_uri !== undefined && !RESUME_PATHS.some((path) => normalizedUrl(entry.resume_uri!) === normalizedUrl(`${issuer}${path}`))) throw invalid('resume_uri');
  if ((entry.resume_uri === undefined) !== (entry.authorization_id === undefined)) throw invalid(entry.resume_uri ? 'authorization_id' : 'resume_uri');
  return entry;
}

function normalizedUrl(value: string): string | undefined {
  try {
    return new URL(value).href;
  } catch {
    return undefined;
  }
}

/** The page URL with the entry's parameters (and the overrides given); undefined values are left out. */
export function pageUrl(page: string, entry: Entry, overrides: Partial<Entry> = {}, explicitLang = false): string {
  const merged: Entry = { ...entry, ...overrides };
  const params = new URLSearchParams();
  for (const key of ['project_id', 'purpose', 'app_id', 'redirect_uri', 'authorization_id', 'resume_uri', 'session_id', 'login_hint', 'flow', 'done', 'notice', 'aal'] as const) {
    const value = merged[key];
    if (value !== undefined) params.set(key, value);
  }
  if (explicitLang && merged.lang) params.set('lang', merged.lang);
  const query = params.toString();
  return `/ui/${page}${query ? `?${query}` : ''}`;
}

/** The sign-in page of the same app (its return address, language, hint), without the flow that was under way. */
export function signInUrl(entry: Entry, explicitLang: boolean, notice?: string): string {
  return pageUrl('login', entry, { purpose: undefined, flow: undefined, done: undefined, session_id: undefined, aal: undefined, notice }, explicitLang);
}

/** Whether the page's URL named a language (then links keep it). */
export const langExplicit = (request: FastifyRequest) => single((request.query as Record<string, unknown> | undefined)?.lang) !== undefined;
