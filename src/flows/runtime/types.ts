import type { CaptchaGateView } from '../gates/captcha.js';
import type { Branding } from '../settings/service.js';

export interface StepField {
  name: string;
  type: string;
  text_key: string;
  required: boolean;
}

export interface StepAction {
  name: string;
  kind: string;
  text_key: string;
  primary: boolean;
}

export interface StepView {
  name: string;
  type: string;
  behavior?: string;
  texts: { title_key: string; description_key: string };
  fields: StepField[];
  actions: StepAction[];
  gates?: { captcha?: CaptchaGateView };
}

/** The interface's Flow response. */
export interface FlowResponse {
  id: string;
  session_id: string;
  session_token?: string;
  step: StepView;
  branding: Branding;
  redirect_uri?: string;
  handoff_token?: string;
  handoff_token_expires_at?: string;
}

/** What the HTTP layer knows about the caller. */
export interface RequestContext {
  ip: string;
  userAgent?: string;
  /** the `_zflow` cookie as sent */
  cookie?: string;
}

/** A runtime answer: the body and what to do with the cookie (`null` clears it). */
export interface FlowResult {
  body: FlowResponse;
  cookie: string | null;
}

export interface SubmitInput {
  action: string;
  fields: Record<string, unknown>;
  captcha?: unknown;
}

export interface StartInput {
  project_id: string;
  purpose: string;
  session_id?: string;
  app_id?: string;
  redirect_uri?: string;
}
