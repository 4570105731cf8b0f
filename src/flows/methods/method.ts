import type { Kysely, RawBuilder } from 'kysely';
import type { CarriedParts } from '../../attempts/store.js';
import type { Clock } from '../../core/clock.js';
import type { IdGenerator } from '../../core/ids.js';
import type { Courier } from '../../courier/service.js';
import type { CredentialService } from '../../credentials/service.js';
import type { Database } from '../../db/schema.js';
import type { RecoveryCodeService } from '../../mfa/recovery-codes.js';
import type { TotpService } from '../../mfa/totp.js';
import type { PasskeyService } from '../../passkeys/service.js';
import type { PasswordService } from '../../passwords/service.js';
import type { ProjectService } from '../../projects/service.js';
import type { Lang, Texts } from '../../projects/ui-texts.js';
import type { Factor, FactorDescription } from '../../sessions/levels.js';
import type { SsoProviderService } from '../../sso/service.js';
import type { User, UserService } from '../../users/service.js';
import type { CodeService } from '../codes/service.js';
import type { SchemaView } from '../definitions/schema-view.js';
import type { DefinitionDraft } from './defaults-draft.js';
import type { TSchema } from 'typebox';
import type { AppError } from '../../core/errors.js';
import type { FlowAction, FlowStepDef } from '../definitions/types.js';
import type { BudgetedFactor } from '../risk/service.js';
import type { RiskSignalRow } from '../risk/store.js';
import type { MethodMarkup } from './markup.js';
import type { FlowSettings } from '../settings/service.js';
import type { StepView, SubmitInput } from '../view.js';

/**
 * The method seam (DESIGN §4.9, Kratos' strategies): each sign-in method is one folder under
 * `flows/methods/` exporting one `AuthMethod`, listed once in `registry.ts`. The flow engine knows
 * no method by name; it asks the registry who owns a field, an action kind or an `on_success` hook.
 */

/**
 * The domain services the methods work with. Each method will declare its own part of this
 * (`Needs`, docs/design/seam-v2.md §2.2); engine internals (risk, attempts, drafts, definitions,
 * the cookie codec) are not among them: a method reaches those only through `MethodContext`.
 */
export interface MethodServices {
  /** runs `work` in one database transaction (a credential with what it belongs to) */
  transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  clock: Clock;
  ids: IdGenerator;
  /** GATEHOUSE_PUBLIC_URL: the base of mail links, SSO callbacks and the passkey origin */
  publicUrl: string;
  projects: ProjectService;
  users: UserService;
  passwords: PasswordService;
  passkeys: PasskeyService;
  totp: TotpService;
  recoveryCodes: RecoveryCodeService;
  userCredentials: CredentialService;
  codes: CodeService;
  courier: Courier;
  sso: { providers: SsoProviderService };
}

/** What a method may build its own services from (`AuthMethod.createServices`), once per app. */
export interface MethodKit {
  db: Kysely<Database>;
  /** runs `work` in one database transaction */
  transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  clock: Clock;
  ids: IdGenerator;
  /** GATEHOUSE_PUBLIC_URL: the base of every link and callback a method builds */
  publicUrl: string;
}

/**
 * Proof of control of the account this frame holds (a consumed recovery code, DESIGN §4.6a): it
 * allows one password change, spent in that change's transaction.
 */
export interface Grant {
  readonly held: boolean;
  /** the consumed code whose one grant a password change spends */
  give(codeId: string): void;
  forget(): void;
  /** takes the grant in `trx`; false when it was spent already (a replayed or concurrent submit) */
  spend(trx: Kysely<Database>): Promise<boolean>;
}

/**
 * A single use a method verified in this request but has not written (a passkey's challenge): the
 * statement that hands the flow off carries it, its run's end gated on `held`, which saves a round
 * trip; before the request writes anything else that the use grants (an attempt, a step's work)
 * it is written alone. `check` (of the carrying statement's report) and `alone` throw the
 * method's refusal when the use did not hold.
 */
export interface PendingUse {
  readonly parts: CarriedParts & { held: RawBuilder<boolean> };
  check(report: Record<string, unknown>): Promise<void>;
  alone(): Promise<void>;
}

/** What a method adds to the answer of the request. */
export interface MethodView {
  /** step extensions of the method's own (`challenge`, `totp`, `recovery_codes`), merged into the rendered step */
  extend(data: Partial<StepView>): void;
  has(key: keyof StepView): boolean;
  warn(textKey: string): void;
  /** the answer's `redirect_uri`: the browser leaves for an upstream provider */
  redirect(url: string): void;
  /** a cookie the answer sets beside `_zflow` (HttpOnly, the flow cookie's attributes), for `maxAgeMs` */
  setCookie(cookie: { name: string; value: string; maxAgeMs: number }): void;
}

/** A method's state in the flow frame. */
export interface Slot<S> {
  get(): S | undefined;
  set(value: S): void;
  clear(): void;
}

/** What a secret's comparison gave for a right answer (`MethodContext.checkSecret`). */
export interface Compared<T> {
  value: T;
  /** recorded with the factor (recovery codes: how many are left) */
  payload?: Record<string, unknown>;
  /** the user's credential methods, when the comparison read them anyway (the password does) */
  credentialMethods?: readonly string[];
}

/** What a method may know of the request: never the cookie, the session token or the IP. */
export interface RequestFacts {
  /** the request's `Origin` header (passkeys derive the relying party from it) */
  origin?: string;
  /** the request's `Accept-Language` (the language of the mail a step sends) */
  acceptLanguage?: string;
  /** runs work once the answer has been sent (mail composition); without it, at once */
  afterAnswer?: (task: () => void) => void;
  /** logs why something failed that the answer does not say; never a secret */
  log?: (message: string, details: Record<string, unknown>) => void;
}

/**
 * The port (issue 32): everything a method may see of and do to one request of one flow, bound to
 * the current step. The runtime implements it (`runtime/context.ts`); the shared security rules
 * behind `checkSecret` and `prove` are the engine's (`runtime/guard.ts`), written once.
 */
export interface MethodContext {
  readonly flowId: string;
  readonly projectId: string;
  /** the current step's definition */
  readonly step: FlowStepDef;
  /** the flow's user schema: fields, identifiers, enabled methods */
  readonly schema: SchemaView;
  /** the user schema's `$id` as the flow definition names it (what a new user is written against) */
  readonly schemaRef: string;
  readonly services: MethodServices;
  /** the services a method built for itself (`AuthMethod.createServices`), by the method's name */
  servicesOf<T>(method: string): T;
  /** the user the flow identified so far (typed identifier, passkey owner, SSO link) */
  readonly userId: string | undefined;
  /** identifies the flow's user (a passkey's owner); undefined forgets who was identified */
  identify(userId: string | undefined): void;
  /** keeps non-secret values the step read (attributes before a passkey registration), by schema field */
  collect(values: ReadonlyMap<string, string>): void;
  /** whether the flow's auth attempt exists already (a proof would not be its first factor) */
  readonly attemptStarted: boolean;
  /** the user this frame created (`create_user`): the flow may still add credentials to them */
  readonly createdUser: string | undefined;
  /** the identifier value the flow collected (lock-out keys, recovery), or '' */
  readonly identifier: string;
  /** a non-secret value the flow collected for a schema field (never a secret) */
  collected(field: string): string | undefined;
  /** settings flows: the signed-in user whose credentials the flow manages, as bound at start */
  readonly boundUser: string | undefined;
  /** the bound user while the flow's session is still active and theirs (settings flows) */
  signedIn(): Promise<string | undefined>;
  /** the user of the flow's session while it is active (signed in before this flow, or by it) */
  sessionUser(): Promise<string | undefined>;
  /** the project's flow settings (passkeys' relying party) */
  flowSettings(): Promise<FlowSettings>;
  /** the user's factors this flow's attempt holds and, unless `flowOnly`, the session's */
  factors(userId: string, options?: { flowOnly?: boolean }): Promise<readonly Factor[]>;
  /** the submitted values of the step's fields, by `runtime/fields.ts` rules (400 with text keys) */
  read(submitted: Record<string, unknown>, options?: { fields?: readonly string[]; optional?: boolean }): Map<string, string>;
  /**
   * Records a factor the method proved on the flow's attempt. A factor with an account budget
   * (password, TOTP, recovery codes) cannot be proved this way: only through `checkSecret`.
   * `verifies`: the proof also proved the user's value of this schema field (a code mailed to it):
   * it is marked verified, and every method's `afterVerified` runs.
   */
  prove(factor: ProvenFactor, userId: string, options?: { verifies?: string }): Promise<void>;
  /**
   * Checks a guess at a budgeted secret the engine's way (DESIGN §4.6a): the attempt is taken
   * before `compare` runs, in one statement, against the account's counter of `factor`; a locked
   * or unidentified guess is not compared (`dummy`, when given, costs what a comparison would);
   * every failure counts against the IP; a right answer resets that factor's counter only and
   * proves the factor. Returns the user and what `compare` gave, or undefined for a failed guess
   * (the method answers it with its own refusal).
   */
  checkSecret<T>(factor: BudgetedFactor, compare: (userId: string) => Promise<Compared<T> | undefined>, dummy?: () => Promise<unknown>): Promise<{ userId: string; value: T } | undefined>;
  /**
   * Takes one message of the recipient's budget (DESIGN §4.6a: per address typed, folded like
   * identifiers, across flows and purposes) before anything is issued: 429 `auth.rate_limited`
   * with `Retry-After` once it is spent, alike for known and unknown addresses.
   */
  takeMailBudget(): Promise<void>;
  /**
   * 429 `auth.rate_limited` when the risk rules deny credential checks from this client. `carry`
   * hands the signals' statement to a read of the method's own, so both take one round trip.
   */
  guard(carry?: (signals: RawBuilder<RiskSignalRow>) => Promise<RiskSignalRow>): Promise<void>;
  /** counts one failure against the client IP: a proof refused outside `verify` (a passkey answer) */
  countRefusal(): Promise<void>;
  /**
   * A single use verified now and written with the flow's hand-off (one round trip less). `make`
   * gets `rollBack`, which puts the flow back as it was at this call (for a refusal found at the write).
   */
  carryUse(make: (rollBack: () => void) => PendingUse): void;
  /**
   * `create_user` with the credentials the method enrolls, written in the user's transaction: an
   * outcome (`user_already_exists`) or undefined once the user exists. With `refusals: 'throw'`
   * the users domain's refusals (`user.invalid`, `user.already_exists`) reach the method as they
   * are, for it to answer (an SSO identity created just in time).
   */
  createUser(enrollments: readonly Enrollment[], refusals?: 'answer' | 'throw'): Promise<string | undefined>;
  /** One action per flow run and `intervalMs` (a resend), taken in one statement; when not taken, when the next may come. */
  throttle(intervalMs: number): Promise<{ taken: boolean; nextAt?: Date }>;
  /** the user's credential methods, when this request's `checkSecret` read them (saves a read) */
  credentialMethodsOf(userId: string): ReadonlySet<string> | undefined;
  /**
   * The method's own state in this frame (it travels in the encrypted flow cookie; never a secret
   * the user types): `state('totp')` holds the TOTP seed shown for enrollment.
   */
  state<S>(method: string): Slot<S>;
  readonly grant: Grant;
  /** what the answer shows beside the step: the method's step extensions, a warning, where the browser goes next */
  readonly view: MethodView;
  readonly request: RequestFacts;
}

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

/** A factor a method proves, as the auth attempt records it (DESIGN §4.9 table). */
export interface ProvenFactor {
  method: string;
  payload?: Record<string, unknown>;
}

/**
 * A credential written together with a new user (`create_user`) in the user's transaction. Checks
 * that can refuse it (password policy) run before it is returned, so a refusal writes nothing.
 */
export interface Enrollment {
  write(trx: Kysely<Database>, user: User): Promise<void>;
  /** the factor the enrollment proves once the user exists (a budgeted one also starts the user's counter of it) */
  factor?: ProvenFactor;
  /** runs after the user's transaction committed and the factor was recorded */
  done?(userId: string): Promise<void>;
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
}

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
