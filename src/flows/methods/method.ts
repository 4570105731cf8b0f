import type { Kysely, RawBuilder } from 'kysely';
import type { CarriedParts } from '../../attempts/store.js';
import type { Clock } from '../../core/clock.js';
import type { KeyRing } from '../../core/keys.js';
import type { IdGenerator } from '../../core/ids.js';
import type { OutboundPolicy } from '../../core/outbound-target.js';
import type { Courier } from '../../courier/service.js';
import type { CredentialService } from '../../credentials/service.js';
import type { Database } from '../../db/schema.js';
import type { SqlPart } from '../../db/reusable.js';
import type { EventLog } from '../../events/service.js';
import type { RecoveryCodeService } from '../../mfa/recovery-codes.js';
import type { TotpService } from '../../mfa/totp.js';
import type { PasskeyService } from '../../passkeys/service.js';
import type { PasswordService } from '../../passwords/service.js';
import type { ProjectService } from '../../projects/service.js';
import type { Factor } from '../../sessions/levels.js';
import type { SsoProviderService } from '../../sso/service.js';
import type { User, UserService } from '../../users/service.js';
import type { CodeService } from '../codes/service.js';
import type { SchemaView } from '../definitions/schema-view.js';
import type { FlowStepDef } from '../definitions/types.js';
import type { BudgetedFactor } from '../risk/service.js';
import type { RiskSignalRow } from '../risk/store.js';
import type { FlowSettings } from '../settings/service.js';
import type { StepView } from '../view.js';

/**
 * The method seam's port (issue 32): what a sign-in method sees of one request (`MethodContext`),
 * implemented by the runtime (`runtime/context.ts`). What a method declares is `AuthMethod`
 * (`declaration.ts`).
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
  /** the event log (src/events): `record` in the transaction of the change it records */
  events: EventLog;
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
  /** the instance's keys: a method seals what it keeps at rest with a `SealedBox` of its own purpose */
  keys: KeyRing;
  /** which hosts the method's own outbound calls may reach (upstream SSO, SAML metadata): `outboundPolicy` of the configuration */
  outbound: OutboundPolicy;
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
  readonly parts: CarriedParts & { held: SqlPart<boolean> };
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
  /** counts one failure against the client IP, and logs it (`login.failed`): a proof of `method` refused outside `verify` (a passkey answer) */
  countRefusal(method: string): Promise<void>;
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
