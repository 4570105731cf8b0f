import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { User } from '../../users/service.js';
import type { FlowAction, FlowStepDef } from '../definitions/types.js';
import type { FlowRun, Loaded } from '../runtime/run.js';
import type { StepView, SubmitInput } from '../view.js';

/**
 * The method seam (DESIGN §4.9, Kratos' strategies): each sign-in method is one folder under
 * `flows/methods/` exporting one `AuthMethod`, listed once in `registry.ts`. The flow engine knows
 * no method by name; it asks the registry who owns a field, an action kind or an `on_success` hook.
 */

/** What a method sees of one request: the flow run, its loaded definition and the current step. */
export interface StepContext {
  run: FlowRun;
  loaded: Loaded;
  step: FlowStepDef;
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
  /** secrets are neither trimmed nor kept in the flow cookie */
  secret: boolean;
}

/** Work a step runs with its accepted input (`on_success`); returns an outcome trigger if one applies. */
export interface StepHook {
  name: string;
  /** method fields the hook consumes as its input: on that step they are not verified as credentials */
  takes?: readonly string[];
  run(ctx: StepContext, values: Map<string, string>): Promise<string | undefined>;
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
  /** the factor the enrollment proves once the user exists */
  factor?: ProvenFactor;
  /** runs after the user's transaction committed and the factor was recorded */
  done?(userId: string): Promise<void>;
}

/** What an action of a method's own kind did: stay on the step (a challenge was issued) or go on. */
export type ActionAnswer = { stay: true } | { stay: false; outcome?: string };

export interface AuthMethod {
  /** the method's name: its `x-auth-methods` key and the factor it writes */
  readonly name: string;
  /** whether a step may use the method only when its schema enables it (false: built in) */
  readonly needsSchemaKey: boolean;
  readonly field?: MethodField;
  /** action kinds the method handles (`passkey`, `passkey_register`) */
  readonly actionKinds?: readonly string[];
  /** outcome triggers the method's work may ask a step to follow (`callback`, `link_account`) */
  readonly outcomes?: readonly string[];
  /** Definition problems of a step that only this method can see (a step listing SSO providers needs an `sso` action). */
  stepIssues?(step: FlowStepDef): Array<{ field: string; message: string }>;
  /** Whether an action of the method's kinds may go without a transition of its own (its outcomes carry the flow on). */
  actionNeedsTransition?(step: FlowStepDef, action: FlowAction): boolean;
  readonly hooks?: readonly StepHook[];
  /** Whether submitting `step` checks a secret of this method: risk assessment, lock-out and captcha apply. */
  checksCredentials?(step: FlowStepDef): boolean;
  /** Verifies the submitted value of the method's field against the identified user. */
  verify?(ctx: StepContext, value: string): Promise<string | undefined>;
  /**
   * A credential the flow holds for the user `create_user` is about to write, without a field (an
   * SSO identity that returned unknown): written in the user's transaction.
   */
  pendingEnrollment?(ctx: StepContext, attributes: Record<string, unknown>): Promise<Enrollment | undefined>;
  /** Prepares the credential that `create_user` writes with the new user from the field's value. */
  enroll?(ctx: StepContext, value: string, attributes: Record<string, unknown>): Promise<Enrollment>;
  /**
   * After a step's fields were verified and its hook ran without an outcome: an outcome trigger the
   * method asks for (TOTP: `second_factor` while the flow's factors do not reach AAL2), if any.
   */
  followUp?(ctx: StepContext): Promise<string | undefined>;
  /** Runs an action of one of the method's kinds. */
  act?(ctx: StepContext, action: FlowAction, input: SubmitInput): Promise<ActionAnswer>;
  /** Adds the method's part to a rendered step (e.g. a passkey challenge for autofill). */
  render?(ctx: StepContext, view: StepView): Promise<void>;
}
