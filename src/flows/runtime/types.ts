import type { RawBuilder } from 'kysely';
import type { CarriedParts } from '../../attempts/store.js';
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

/**
 * A single use a method verified in this request but has not written (a passkey's challenge): the
 * statement that hands the flow off carries it, its run's end gated on `held`, which saves a round
 * trip; before the request writes anything else that the use grants (an attempt, a step's work)
 * it is written alone (FlowRun.settleUse). `check` (of the carrying statement's report) and
 * `alone` throw the method's refusal when the use did not hold.
 */
export interface PendingUse {
  readonly parts: CarriedParts & { held: RawBuilder<boolean> };
  check(report: Record<string, unknown>): Promise<void>;
  alone(): Promise<void>;
}
