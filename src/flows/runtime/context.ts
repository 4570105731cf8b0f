import type { Factor } from '../../sessions/levels.js';
import type { FlowStepDef } from '../definitions/types.js';
import type { RawBuilder } from 'kysely';
import type { Compared, Enrollment, Grant, MethodContext, MethodServices, MethodView, PendingUse, ProvenFactor, RequestFacts, Slot } from '../methods/method.js';
import { createUser } from './create-user.js';
import type { RiskSignalRow } from '../risk/store.js';
import type { FlowSettings } from '../settings/service.js';
import { isBudgetedFactor, METHODS } from '../methods/registry.js';
import type { BudgetedFactor } from '../risk/service.js';
import { readFields } from './fields.js';
import { checkSecret, takeMailBudget } from './guard.js';
import type { FlowRun, Loaded } from './run.js';

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
    if (isBudgetedFactor(factor.method)) {
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
      const risk = this.run.signalsAlongside();
      risk.primed(carry(risk.query));
    }
    await this.run.refuseWhenDenied();
  }

  async countRefusal(): Promise<void> {
    await this.run.deps.risk.recordIpFailure(this.projectId, this.run.ctx.ip);
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
