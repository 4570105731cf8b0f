import type { FlowResponse, SideCookie } from '../view.js';

/** What the HTTP layer knows about the caller. */
export interface RequestContext {
  ip: string;
  userAgent?: string;
  /** the `_zflow` cookie as sent */
  cookie?: string;
  /** the session token the caller holds (cookie `__service_session` or `Authorization: Bearer`): settings flows need it */
  sessionToken?: string;
  /** the request's `Origin` header (passkeys derive the relying party from it) */
  origin?: string;
  /** the request's `Accept-Language` (the language of the mail a step sends) */
  acceptLanguage?: string;
  /**
   * Runs work once the answer has been sent (mail composition): its time then never shows in the
   * answer's, for known and unknown addresses alike. Without it the work starts at once.
   */
  afterAnswer?: (task: () => void) => void;
  /** Logs why something failed that the answer does not say (an upstream sign-in); never a secret. */
  log?: (message: string, details: Record<string, unknown>) => void;
}

/** A runtime answer: the body and what to do with the cookie (`null` clears it). */
export interface FlowResult {
  body: FlowResponse;
  cookie: string | null;
  setCookies?: SideCookie[];
}

export interface StartInput {
  project_id: string;
  purpose: string;
  session_id?: string;
  app_id?: string;
  redirect_uri?: string;
}
