import type { CaptchaGateView } from './gates/captcha.js';
import type { Branding } from './settings/service.js';

/*
 * The shapes of the interface's Flow response and submit body (spec/interface.md): what the
 * engine renders and reads, and what a method extends a step with (`challenge`, `totp`...).
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
  /** a passkey ceremony to run (DESIGN §4.10) */
  challenge?: ChallengeView;
  /** a text key: something that happened between requests failed */
  error?: string;
  /** a text key: something the user should act on (`warning.recovery_codes_low`) */
  warning?: string;
  /** TOTP enrollment (DESIGN §4.12): the seed, the URI authenticator apps import, its QR code */
  totp?: { secret: string; otpauth_uri: string; qr_svg: string };
  /** new recovery codes, in the response that generated them only */
  recovery_codes?: string[];
  /** the upstream identity providers the step offers (DESIGN §4.14) */
  sso_providers?: Array<{ id: string; name: string; template: string }>;
  /** on a settings step that removes a credential: the signed-in user's credentials to choose from (never a secret) */
  credentials?: Array<{ id: string; method: string; name: string | null; created_at: string }>;
}

/** `step.challenge`: the WebAuthn options a browser passes to `navigator.credentials`. */
export interface ChallengeView {
  challenge_id: string;
  method: 'passkey' | 'passkey_register';
  /** `PublicKeyCredentialRequestOptionsJSON` or `PublicKeyCredentialCreationOptionsJSON` */
  options: Record<string, unknown>;
  /** `conditional` on a rendered step: offer passkeys in the identifier field's autofill */
  mediation?: 'conditional';
}

/** The answer to a challenge: `proof` is the credential's `toJSON()`. */
export interface ChallengeResponse {
  challenge_id: string;
  method: string;
  proof: unknown;
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
  challenge_response?: ChallengeResponse;
  /** `sso` actions: the provider to sign in with, one of `step.sso_providers` */
  sso_provider_id?: string;
  /** `sso` actions: where the browser returns after the upstream sign-in (the request's allowed origin) */
  return_to?: string;
}
