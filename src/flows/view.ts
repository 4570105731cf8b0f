import type { CaptchaGateView } from './gates/captcha.js';
import type { Branding } from './settings/service.js';

/*
 * The shapes of the interface's Flow response and submit body (spec/interface.md): what the
 * engine renders and reads. A method adds its own members (`step.challenge`, a submit body's
 * `challenge_response`) in its folder's `view.ts`: a module augmentation of `StepView` and
 * `SubmitInput` for the types, `stepExtensions` and `submitMembers` for the schemas.
 */

export interface StepField {
  name: string;
  type: string;
  text_key: string;
  required: boolean;
  /** a value the flow collected already (claims of an SSO sign-in, an identifier typed before); never a secret */
  value?: string;
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
  /** a text key: something that happened between requests failed */
  error?: string;
  /** a text key: something the user should act on (`warning.recovery_codes_low`) */
  warning?: string;
}

/**
 * `step.challenge` as the hosted pages' `StepExtras` names it (`ui/step.ts`), until they import the
 * owning method's own type: `StepView`'s member is declared by that method's `view.ts`.
 */
export type ChallengeView = StepView extends { challenge?: infer C } ? NonNullable<C> : never;

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

/** A cookie a method sets beside `_zflow` (the SSO binding `_zsso`). */
export interface SideCookie {
  name: string;
  value: string;
  maxAgeMs: number;
}

export interface SubmitInput {
  action: string;
  fields: Record<string, unknown>;
  captcha?: unknown;
}
