import type { Factor } from '../../sessions/levels.js';
import { identifierField } from '../definitions/schema-view.js';
import { isCompleteStep, type FlowStepDef } from '../definitions/types.js';
import type { RawBuilder } from 'kysely';
import type { Compared, Enrollment, Grant, MethodContext, MethodServices, MethodView, PendingUse, ProvenFactor, RequestFacts, Slot } from '../methods/method.js';
import { createUser } from './create-user.js';
import type { RiskSignalRow } from '../risk/store.js';
import type { FlowSettings } from '../settings/service.js';
import { BUDGETED, FIELD_OWNERS, METHODS, SCREENS } from '../methods/registry.js';
import type { BudgetedFactor } from '../risk/service.js';
import { planOf, readFields, stepFields } from './fields.js';
import { checkSecret, countingRefusals, recordFailedCheck, takeMailBudget } from './guard.js';
import type { FlowRun, Loaded } from './run.js';
import type { StepView, SubmitInput } from '../view.js';

/**
 * The runtime's side of the method port (`MethodContext`, methods/method.ts): one object per
 * request and step, over the flow run. Reads go to the current frame each time, so a context stays
 * true while the step's work identifies a user or collects an identifier.
 */
export class RunContext implements MethodContext {
  constructor(
    readonly run: FlowRun,
    readonly loaded: Loaded,
    readonly step: FlowStepDef,
  ) {}

  get flowId(): string {
    return this.run.frame.id;
  }

  get projectId(): string {
    return this.run.projectId;
  }

  get schema() {
    return this.loaded.schema;
  }

  get schemaRef(): string {
    return this.loaded.def.user_schema ?? this.loaded.row.schema_uri;
  }

  get services(): MethodServices {
    return this.run.deps;
  }

  servicesOf<T>(method: string): T {
    if (!this.run.deps.ownServices.has(method)) throw new Error(`The sign-in method "${method}" built no services of its own (createServices).`);
    return this.run.deps.ownServices.get(method) as T;
  }

  get userId(): string | undefined {
    return this.run.frame.u;
  }

  identify(userId: string | undefined): void {
    this.run.frame.u = userId;
  }

  collect(values: ReadonlyMap<string, string>): void {
    for (const [field, value] of values) this.run.frame.c[field] = value;
  }

  get attemptStarted(): boolean {
    return this.run.entry.a !== undefined;
  }

  get createdUser(): string | undefined {
    return this.run.frame.cr;
  }

  get identifier(): string {
    return this.run.collectedIdentifier();
  }

  collected(field: string): string | undefined {
    return this.run.frame.c[field];
  }

  get boundUser(): string | undefined {
    return this.run.frame.su;
  }

  async signedIn(): Promise<string | undefined> {
    const userId = this.boundUser;
    if (userId === undefined) return undefined;
    return (await this.sessionUser()) === userId ? userId : undefined;
  }

  async sessionUser(): Promise<string | undefined> {
    const session = await this.run.deps.sessions.get(this.projectId, this.run.entry.ss).catch(() => undefined);
    return session?.state === 'active' ? session.user_id : undefined;
  }

  flowSettings(): Promise<FlowSettings> {
    return this.run.deps.flowSettings.flowSettings(this.projectId);
  }

  async factors(userId: string, options: { flowOnly?: boolean } = {}): Promise<readonly Factor[]> {
    const { deps, entry } = this.run;
    const session = options.flowOnly ? undefined : await deps.sessions.get(this.projectId, entry.ss).catch(() => undefined);
    const attempt = entry.a === undefined ? undefined : this.run.attempt?.id === entry.a ? this.run.attempt : await deps.attempts.get(this.projectId, entry.a).catch(() => undefined);
    return [...(session?.factors ?? []), ...(attempt?.factors ?? [])].filter((factor) => factor.payload.user_id === userId);
  }

  read(submitted: Record<string, unknown>, options?: { fields?: readonly string[]; optional?: boolean }): Map<string, string> {
    return readFields(this.flowId, this.step, this.schema, submitted, options);
  }

  async prove(factor: ProvenFactor, userId: string, options: { verifies?: string } = {}): Promise<void> {
    if (BUDGETED.has(factor.method)) {
      throw new Error(`The ${factor.method} factor has an account budget: it is proved only through checkSecret.`);
    }
    const field = options.verifies;
    await Promise.all([this.run.recordFactor(factor, userId), field !== undefined ? this.run.deps.users.markVerified(this.projectId, userId, field) : undefined]);
    if (field === undefined) return;
    for (const method of METHODS) await method.afterVerified?.(this, userId, field);
  }

  takeMailBudget(): Promise<void> {
    return takeMailBudget(this.run);
  }

  async guard(carry?: (signals: RawBuilder<RiskSignalRow>) => Promise<RiskSignalRow>): Promise<void> {
    if (carry) {
      const risk = this.run.guard.signalsAlongside();
      risk.primed(carry(risk.query));
    }
    await this.run.guard.refuseWhenDenied();
  }

  async countRefusal(method: string): Promise<void> {
    await recordFailedCheck(this.run, { reason: 'invalid_credentials', method, userId: this.run.frame.u });
  }

  carryUse(make: (rollBack: () => void) => PendingUse): void {
    const before = structuredClone(this.run.entry);
    this.run.pendingUse = make(() => this.run.rollBack(before));
  }

  createUser(enrollments: readonly Enrollment[], refusals: 'answer' | 'throw' = 'answer'): Promise<string | undefined> {
    return createUser(this, async () => [...enrollments], refusals);
  }

  throttle(intervalMs: number): Promise<{ taken: boolean; nextAt?: Date }> {
    return this.run.deps.definitions.takeCodeSend(this.flowId, intervalMs);
  }

  checkSecret<T>(factor: BudgetedFactor, compare: (userId: string) => Promise<Compared<T> | undefined>, dummy?: () => Promise<unknown>): Promise<{ userId: string; value: T } | undefined> {
    return checkSecret(this.run, factor, compare, dummy);
  }

  credentialMethodsOf(userId: string): ReadonlySet<string> | undefined {
    return this.run.userMethods?.userId === userId ? this.run.userMethods.methods : undefined;
  }

  state<S>(method: string): Slot<S> {
    const run = this.run;
    const frame = run.frame;
    return {
      get: () => frame.m?.[method] as S | undefined,
      set: (value) => {
        frame.m = { ...frame.m, [method]: value };
        run.stateChanged = true;
      },
      clear: () => {
        if (frame.m?.[method] === undefined) return;
        const { [method]: _gone, ...rest } = frame.m;
        frame.m = Object.keys(rest).length > 0 ? rest : undefined;
        run.stateChanged = true;
      },
    };
  }

  get grant(): Grant {
    const { run } = this;
    const frame = run.frame;
    return {
      held: frame.pv !== undefined,
      give: (codeId) => {
        frame.pv = codeId;
      },
      forget: () => {
        frame.pv = undefined;
      },
      spend: async (trx) => frame.pv !== undefined && (await run.deps.codes.useGrant(trx, this.projectId, frame.pv)),
    };
  }

  get view(): MethodView {
    const { run } = this;
    const extensions = run.extensions;
    return {
      extend: (data) => Object.assign(extensions, data),
      has: (key) => extensions[key] !== undefined,
      warn: (textKey) => {
        extensions.warning = textKey;
      },
      redirect: (url) => {
        run.redirectUri = url;
      },
      setCookie: (cookie) => {
        run.setCookies.push(cookie);
      },
    };
  }

  get request(): RequestFacts {
    const { origin, acceptLanguage, afterAnswer, log } = this.run.ctx;
    return { origin, acceptLanguage, afterAnswer, log };
  }
}

/*
 * One step of a run: how it renders (every method the step names adds its part) and what it does
 * with the values a submit gave (`runStep`).
 */

/** The step as the answer shows it: fields, actions, the captcha gate, each method's part. */
export async function renderStep(run: FlowRun, step: FlowStepDef, loaded: Loaded, captcha: boolean): Promise<StepView> {
  const view: StepView = {
    name: step.name,
    type: isCompleteStep(step) ? 'complete' : 'form',
    texts: {
      title_key: step.texts?.title_key ?? `step.${step.name}.title`,
      description_key: step.texts?.description_key ?? `step.${step.name}.description`,
    },
    fields: stepFields(step, loaded.schema, run.frame.c),
    actions: (step.actions ?? []).map((a) => ({ name: a.name, kind: a.kind, text_key: a.text_key ?? `action.${a.name}`, primary: a.primary ?? false })),
  };
  if (isCompleteStep(step)) view.behavior = step.complete;
  if (captcha) view.gates = { captcha: await run.challenge() };
  const renderers = planOf(step).renderers;
  if (renderers.length > 0) {
    const ctx = new RunContext(run, loaded, step);
    for (const method of renderers) await method.render!(ctx, view);
  }
  if (run.frame.er !== undefined) view.error = run.frame.er;
  return Object.assign(view, run.extensions);
}

/** The credentials the step's method fields enroll with a new user (a password at registration). */
async function enrollments(ctx: RunContext, values: Map<string, string>, attributes: Record<string, unknown>): Promise<Enrollment[]> {
  const prepared: Enrollment[] = [];
  for (const [field, value] of values) {
    const method = FIELD_OWNERS.get(field)?.method;
    if (method?.enroll) prepared.push(await method.enroll(ctx, value, attributes));
  }
  for (const method of planOf(ctx.step).enrollers) {
    const pending = await method.pendingEnrollment!(ctx, attributes);
    if (pending) prepared.push(pending);
  }
  return prepared;
}

/**
 * What a step does with accepted input, in the order every method relies on:
 * 1. keep the non-secret values in the frame (a new identifier forgets who was identified);
 * 2. `create_user` creates the user with what the methods enroll, and ends there;
 * 3. an identifier field identifies the user (or follows `user_not_found`);
 * 4. each method field is verified by its method, unless the step's hook takes it as input;
 * 5. the step's `on_success` hook runs;
 * 6. a method may ask for an outcome (`followUp`: a second factor is due).
 * Returns an outcome trigger when one applies.
 */
/** What `runStep` answers when a method's `screen` kept the step (it sent the browser elsewhere). */
export const STAY = '\u0000stay';

export async function runStep(ctx: RunContext, values: Map<string, string>, input?: SubmitInput): Promise<string | undefined> {
  const { run, loaded, step } = ctx;
  const { frame } = run;
  const identField = identifierField(step, loaded.schema);
  if (identField && values.has(identField) && frame.c[identField] !== values.get(identField)) {
    frame.u = undefined;
    frame.pv = undefined;
  }
  for (const [field, value] of values) if (!FIELD_OWNERS.has(field)) frame.c[field] = value;
  if (input !== undefined) for (const method of SCREENS) if ((await method.screen!(ctx, values, input)) === 'stay') return STAY;

  if (step.on_success === 'create_user') return createUser(ctx, (attributes) => enrollments(ctx, values, attributes));

  if (identField && values.has(identField)) {
    frame.u = await run.guard.userNamed(loaded.row.schema_id, values.get(identField)!);
    if (frame.u === undefined && step.transitions?.user_not_found) return 'user_not_found';
  }

  const plan = planOf(step);
  const { hook } = plan;
  for (const [field, value] of values) {
    if (hook?.takes?.includes(field)) continue;
    const owner = FIELD_OWNERS.get(field)?.method;
    if (!owner?.verify) continue;
    const outcome = await countingRefusals(run, owner, () => owner.verify!(ctx, value));
    if (outcome !== undefined) return outcome;
  }
  const outcome = await hook?.run(ctx, values);
  if (outcome !== undefined) return outcome;
  for (const method of plan.followUps) {
    const asked = await method.followUp!(ctx);
    if (asked !== undefined) return asked;
  }
  return undefined;
}
