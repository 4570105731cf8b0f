import type { AppError } from '../../core/errors.js';
import type { Lang, Texts } from '../../projects/ui-texts.js';
import type { FactorDescription } from '../../sessions/levels.js';
import type { TSchema } from 'typebox';
import type { SchemaView } from '../definitions/schema-view.js';
import type { FlowAction, FlowStepDef } from '../definitions/types.js';
import type { BudgetedFactor } from '../risk/service.js';
import type { StepView, SubmitInput } from '../view.js';
import type { DefinitionDraft } from './defaults-draft.js';
import type { MethodMarkup } from './markup.js';
import type { Enrollment, MethodContext, MethodKit } from './method.js';

/**
 * The method seam's declaration (DESIGN §4.9, Kratos' strategies): each sign-in method is one
 * folder under `flows/methods/` exporting one `AuthMethod`, listed once in `registry.ts`. The flow
 * engine knows no method by name; it asks the registry who owns a field, an action kind or an
 * `on_success` hook. What a method sees of a request is its port, `MethodContext` (`method.ts`).
 */

/** A step field a method owns, e.g. `x-auth-methods#password`. */
export interface MethodField {
  /** the reference written in a step's `fields` */
  ref: string;
  /** the rendered field type */
  type: string;
  /** the longest value accepted */
  maxLength: number;
  /** a value's required shape and the text key answered when it does not match */
  pattern?: { regex: RegExp; error: string };
  /** secrets are never kept in the flow cookie */
  secret: boolean;
  /** taken exactly as typed: neither trimmed nor refused for control characters (a password may hold any) */
  raw?: boolean;
}

/** Work a step runs with its accepted input (`on_success`); returns an outcome trigger if one applies. */
export interface StepHook {
  name: string;
  /** method fields the hook consumes as its input: on that step they are not verified as credentials */
  takes?: readonly string[];
  run(ctx: MethodContext, values: Map<string, string>): Promise<string | undefined>;
}


/**
 * A browser coming back from upstream to a path of the method's own (an SSO callback). The engine
 * serves the path (GET, and POST for `response_mode=form_post`, answered with a 303 to the GET),
 * finds the flow the binding cookie names (`<flow id>.<secret>`), hands the method the parameters
 * and the secret, follows the outcome or shows the error on the step, and sends the browser to
 * the answer's `returnTo` with `?flow=<id>`.
 */
export interface UpstreamReturn {
  readonly path: string;
  /** the parameters the upstream may send (each once), checked before anything runs */
  readonly params: TSchema;
  /** the cookie that binds the return to the browser that left, cleared by the return */
  readonly bindingCookie: string;
  /** the OpenAPI summaries of the two routes */
  readonly summaries: { get: string; post: string };
  /** the 400 answered when the return cannot be tied to a flow of this browser, and why (logged in details) */
  unusable(reason: string): AppError;
  /**
   * Whether the binding secret is the one the method kept in its slot (the slot's value as the
   * frame holds it). Checked from the cookies alone, before anything else is read: a return that
   * does not bind is refused even while the database is gone.
   */
  binds(slot: unknown, secret: string): boolean;
  /**
   * The POST form turned into the GET's parameters (default: as posted). A large form field (a
   * SAML response) can be packed so that the GET's URL stays short.
   */
  fromPost?(form: Record<string, string>): Record<string, string>;
  /** the largest POST form accepted (default 16 KiB) */
  readonly maxPostBytes?: number;
}

/** What `AuthMethod.screen` decided: `stay` answers the step as it is (the method set a redirect). */
export type Screened = 'stay' | undefined;

/** Where an upstream return leads: an outcome the step follows, or a text key its `step.error` shows. */
export type UpstreamAnswer = { returnTo: string } & ({ outcome: string } | { error: string; reason: string; details?: Record<string, unknown> });

/** What an action of a method's own kind did: stay on the step (a challenge was issued) or go on. */
export type ActionAnswer = { stay: true } | { stay: false; outcome?: string };

/**
 * A method's text keys in every language of the hosted UI (a language added to `LANGS` must be
 * translated by every method, so each is required). A key lives with a method when only that
 * method names it: its field (`field.<f>`), its credential (`ui.credential.<m>`), the refusals only
 * it answers, its action kinds' texts, and the steps and actions only its part of the default
 * definitions adds. A key the engine, the pages or two methods use stays in `ui/i18n.ts`. Keys
 * must be new: `registerMethod` refuses another method's, the catalogue refuses a core one.
 */
export type MethodTexts = Readonly<Record<Lang, Readonly<Texts>>>;

export interface AuthMethod {
  /** the method's name: its `x-auth-methods` key and the factor it writes */
  readonly name: string;
  /**
   * The factors the method proves, by the factor's `method`: what each counts as towards the
   * assurance levels (NIST kind) and its `amr` in ID tokens. Undescribed factors count towards AAL1 only.
   */
  readonly factors?: Readonly<Record<string, FactorDescription>>;
  /** whether a step may use the method only when its schema enables it (false: built in) */
  readonly needsSchemaKey: boolean;
  readonly field?: MethodField;
  /**
   * `account`: guesses at the method's secret count against each user's counter of this factor,
   * with its own lock-out (DESIGN §4.6a), and the factor is proven only through
   * `MethodContext.checkSecret` (`prove` refuses it). The engine owns every rule that follows.
   */
  readonly budget?: 'account';
  /** action kinds the method handles (`passkey`, `passkey_register`) */
  readonly actionKinds?: readonly string[];
  /** outcome triggers the method's work may ask a step to follow (`callback`, `link_account`) */
  readonly outcomes?: readonly string[];
  /** flow purposes that run bound to the caller's signed-in session, identified as its user (`settings`) */
  readonly sessionBoundPurposes?: readonly string[];
  /**
   * The frame key the method's state had before slots (`state(name)`): a cookie written before
   * the move still carries it, and the engine moves it into the slot when it reads the cookie.
   * Kept for one release.
   */
  readonly legacyFrameKey?: string;
  /** several old frame keys: the slot becomes an object holding each under its old name */
  readonly legacyFrameKeys?: readonly string[];
  /** Definition problems of a step that only this method can see (a step listing SSO providers needs an `sso` action). */
  stepIssues?(step: FlowStepDef): Array<{ field: string; message: string }>;
  /** Whether an action of the method's kinds may go without a transition of its own (its outcomes carry the flow on). */
  actionNeedsTransition?(step: FlowStepDef, action: FlowAction): boolean;
  readonly hooks?: readonly StepHook[];
  /** Whether submitting `step` checks a secret of this method: risk assessment, lock-out and captcha apply. */
  checksCredentials?(step: FlowStepDef): boolean;
  /**
   * For a method without an account budget whose steps check a secret (a mailed code): the budgeted
   * factor whose account counter the deny and captcha decisions before the check read (`password`).
   */
  readonly precheckFactor?: BudgetedFactor;
  /**
   * After a proof marked a schema field of the user verified (`prove(…, {verifies})`): the method's
   * work that waited for it (SSO links an identity that waited for its address to be proven).
   */
  afterVerified?(ctx: MethodContext, userId: string, field: string): Promise<void>;
  /**
   * Verifies the submitted value of the method's field against the identified user. A refusal
   * (`flow.invalid_credentials`, `flow.code_exhausted`) of a method without an account budget
   * counts one failure against the client IP: the engine does it.
   */
  verify?(ctx: MethodContext, value: string): Promise<string | undefined>;
  /**
   * A credential the flow holds for the user `create_user` is about to write, without a field (an
   * SSO identity that returned unknown): written in the user's transaction.
   */
  pendingEnrollment?(ctx: MethodContext, attributes: Record<string, unknown>): Promise<Enrollment | undefined>;
  /** Prepares the credential that `create_user` writes with the new user from the field's value. */
  enroll?(ctx: MethodContext, value: string, attributes: Record<string, unknown>): Promise<Enrollment>;
  /**
   * After a step's fields were verified and its hook ran without an outcome: an outcome trigger the
   * method asks for (TOTP: `second_factor` while the flow's factors do not reach AAL2), if any.
   */
  followUp?(ctx: MethodContext): Promise<string | undefined>;
  /** Whether `followUp` can ask for anything on `step` (asked once per step definition; without it, always). */
  followsUpOn?(step: FlowStepDef): boolean;
  /**
   * Takes over an action of another method's kind for the inputs only it recognises (an `sso`
   * action naming a SAML provider, DESIGN §4.20); the engine asks before the kind's owner, in
   * registry order, and runs the claimant's `act`.
   */
  claimsAction?(ctx: MethodContext, action: FlowAction, input: SubmitInput): Promise<boolean>;
  /**
   * Sees a step's submitted values before they are verified (home-realm discovery): it may send the
   * browser elsewhere (`view.redirect`, answering `stay`) or refuse the submit by throwing.
   */
  screen?(ctx: MethodContext, values: ReadonlyMap<string, string>, input: SubmitInput): Promise<Screened>;
  /** Runs an action of one of the method's kinds. */
  act?(ctx: MethodContext, action: FlowAction, input: SubmitInput): Promise<ActionAnswer>;
  /** the browser's return from upstream (`resume`) */
  readonly upstreamReturn?: UpstreamReturn;
  /**
   * The browser came back from upstream (`upstreamReturn`): checks `binding` against the state the
   * method kept (a mismatch throws `unusable`), then answers where the flow goes.
   */
  resume?(ctx: MethodContext, params: Record<string, string>, binding: string): Promise<UpstreamAnswer>;
  /** Adds the method's part to a rendered step (e.g. a passkey challenge for autofill). */
  render?(ctx: MethodContext, view: StepView): Promise<void>;
  /** Whether `render` adds anything on `step` (asked once per step definition; without it, every step renders it). */
  rendersOn?(step: FlowStepDef): boolean;
  /**
   * The method's own text keys (`MethodTexts`, its `texts.ts`), merged into the hosted UI's
   * built-in catalogue; a project overrides them like any key.
   */
  readonly texts?: MethodTexts;
  /** Its markup on the hosted pages (`markup.ts`): step extensions, own fields and buttons; `ui/step.ts` places it. */
  readonly ui?: MethodMarkup;
  /**
   * The method's part of the default definitions every project starts with (`definitions/defaults.ts`):
   * applied to the skeleton in registry order, it adds the steps, actions and transitions the method
   * owns where `schema` enables it (an earlier method's additions are there to extend).
   */
  defaults?(draft: DefinitionDraft, schema: SchemaView): void;
  /**
   * Its `x-auth-methods` key (`name`, when `needsSchemaKey`) beyond `{enabled}`: `options`, JSON-schema
   * properties the key's object may add (password's `minLength`); `alsoKeys`, further keys of its own
   * that schemas switch on (otp's `magic_link`: mailed links). Schemas accept exactly these keys.
   */
  readonly schemaKey?: { readonly options?: Readonly<Record<string, unknown>>; readonly alsoKeys?: readonly string[] };
  /**
   * What the method adds to the API's shapes, as JSON schemas (the OpenAPI document and the request
   * checks are composed from them; the method's `view.ts` augments the TypeScript types alike).
   * `stepExtensions`: properties of a rendered step (`step.challenge`), each at its place among the
   * step's properties (`at`, against the engine's own in `runtime/schemas.ts`, so answers keep the
   * order clients have seen; without it, last). Keys must be new: composing refuses a repeat.
   */
  readonly stepExtensions?: Readonly<Record<string, { readonly schema: TSchema; readonly at?: number }>>;
  /** top-level members of a submit body the method's actions read (`challenge_response`), after the engine's */
  readonly submitMembers?: Readonly<Record<string, TSchema>>;
  /** properties of a step in a flow definition (`sso_providers`), after the engine's */
  readonly stepProperties?: Readonly<Record<string, TSchema>>;
  /**
   * Builds the method's own services once, when the app is built (the store of a credential no
   * domain keeps), from what every method may use (`MethodKit`); the method reaches them with
   * `ctx.servicesOf(name)`. Built-in methods use the domain services on `ctx.services`.
   */
  createServices?(kit: MethodKit): unknown;
}
