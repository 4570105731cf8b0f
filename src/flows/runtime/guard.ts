import type { RawBuilder } from 'kysely';
import { AppError } from '../../core/errors.js';
import { SYSTEM, type EventDataMap } from '../../events/types.js';
import type { FlowStepDef } from '../definitions/types.js';
import type { Compared } from '../methods/method.js';
import type { AuthMethod } from '../methods/declaration.js';
import { BUDGETED } from '../methods/registry.js';
import type { BudgetedFactor, RiskAssessment, RiskRules, RiskSignals, TakenAttempt } from '../risk/service.js';
import type { RiskSignalRow } from '../risk/store.js';
import { takeMailBudget as takeRecipientMailBudget } from '../risk/mail-budget.js';
import type { ProvenFactor } from '../methods/method.js';
import type { FlowEntry, FlowFrame } from '../state.js';
import type { FlowDeps } from './deps.js';
import type { RequestContext } from './types.js';

/** What the guard reads and writes of one request's flow run (`FlowRun`, run.ts, which holds a guard). */
export interface GuardedRun {
  readonly deps: FlowDeps;
  readonly projectId: string;
  readonly frame: FlowFrame;
  readonly entry: FlowEntry;
  readonly ctx: RequestContext;
  readonly guard: RequestGuard;
  userMethods?: { userId: string; methods: Set<string> };
  collectedIdentifier(): string;
  recordFactor(factor: ProvenFactor, userId: string): Promise<void>;
}

/*
 * The shared security rules of credential checks (DESIGN §4.6a), owned once by the engine: a
 * method states what to compare, never how guesses are counted, locked or reset.
 */

/**
 * The risk side of one request of one flow: the rules and the signals its credential checks
 * decide from, read once (the deny check, the captcha decision and the lock-out of a guess all
 * decide from the same read), and the user a typed identifier names.
 */
export class RequestGuard {
  private rules?: RiskRules;
  /** Risk signals read in this request, by account key and user (see `signals`). */
  private risk?: { key: string; signals: Promise<RiskSignals> };
  /** The user a typed identifier names, looked up once per request (see `userNamed`). */
  private named?: { schemaId: string; identifier: string; userId: Promise<string | undefined> };

  constructor(private readonly run: Omit<GuardedRun, 'guard' | 'userMethods' | 'collectedIdentifier' | 'recordFactor'>) {}

  async riskRules(): Promise<RiskRules> {
    this.rules ??= (await this.run.deps.flowSettings.flowSettings(this.run.projectId)).risk;
    return this.rules;
  }

  /** The risk signals of this submit, read once; `forget` after the step's work, which may have changed what they count. */
  signals(accountKey?: string): Promise<RiskSignals> {
    const { run } = this;
    const userId = run.frame.u;
    const key = `${accountKey ?? ''}\0${userId ?? ''}`;
    if (this.risk?.key !== key) {
      this.risk = { key, signals: run.deps.risk.signals(run.projectId, { ip: run.ctx.ip, accountKey, userId, sessionId: run.entry.ss }) };
    }
    return this.risk.signals;
  }

  /**
   * The signals' statement for another read to carry along (one round trip for both); `primed`
   * hands this request the row that read brought back, so that the checks that follow use it.
   */
  signalsAlongside(accountKey?: string): { query: RawBuilder<RiskSignalRow>; primed(row: Promise<RiskSignalRow>): void } {
    const { run } = this;
    const userId = run.frame.u;
    const request = run.deps.risk.signalsRequest(run.projectId, { ip: run.ctx.ip, accountKey, userId, sessionId: run.entry.ss });
    return {
      query: request.query,
      primed: (row) => {
        this.risk = { key: `${accountKey ?? ''}\0${userId ?? ''}`, signals: row.then(request.read) };
      },
    };
  }

  forget(): void {
    this.risk = undefined;
    this.named = undefined;
  }

  /**
   * The id of the user a typed identifier names, read once per request: the pre-check keys the
   * account's counter by it (DESIGN §4.6a, one account, one counter) before the step identifies
   * the user with the same answer, so known and unknown identifiers cost one lookup each.
   */
  userNamed(schemaId: string, identifier: string): Promise<string | undefined> {
    if (this.named?.schemaId !== schemaId || this.named.identifier !== identifier) {
      const userId = this.run.deps.users.findByIdentifier(this.run.projectId, schemaId, identifier).then((user) => user?.id);
      this.named = { schemaId, identifier, userId };
    }
    return this.named.userId;
  }

  async assess(accountKey?: string): Promise<RiskAssessment> {
    return this.run.deps.risk.assess(await this.signals(accountKey), await this.riskRules());
  }

  /** 429 `auth.rate_limited` when the risk rules deny credential checks from this client or account. */
  async refuseWhenDenied(accountKey?: string): Promise<void> {
    const assessment = await this.assess(accountKey);
    if (assessment.decision === 'deny') {
      throw new AppError('auth.rate_limited', 'Too many failed attempts; try again later.', { retry_after_seconds: assessment.retryAfterSeconds }, { 'retry-after': String(assessment.retryAfterSeconds ?? 60) });
    }
  }

  /** Whether the current step must carry (and its submit solve) the captcha gate. */
  async needsCaptcha(step: FlowStepDef, checksCredentials: boolean, accountKey?: string): Promise<boolean> {
    if (step.gates?.captcha) return true;
    if (!checksCredentials) return false;
    return (await this.assess(accountKey)).decision !== 'allow';
  }
}

/**
 * The account a guess at `factor` counts against (`RiskService.accountKeyFor`): the identified
 * user's counter of the factor, else the typed identifier's. The engine's pre-check
 * (`guessedAccount`) reads the same key, so the captcha decision and the lock-out agree.
 */
export function guessKey(run: GuardedRun, factor: BudgetedFactor): string {
  return run.deps.risk.accountKeyFor(run.projectId, { userId: run.frame.u, identifier: run.collectedIdentifier() }, factor);
}

/**
 * The counter a step's guess will count against, for the deny and captcha decisions before it:
 * the user the identifier typed in this step names, else the identified user, else the
 * identifier collected. Undefined when the step names nobody yet.
 */
export async function guessedAccount(run: GuardedRun, schemaId: string, typed: string | undefined, factor: BudgetedFactor): Promise<string | undefined> {
  const userId = typed !== undefined ? await run.guard.userNamed(schemaId, typed) : run.frame.u;
  const identifier = typed ?? run.collectedIdentifier();
  if (userId === undefined && identifier === '') return undefined;
  return run.deps.risk.accountKeyFor(run.projectId, { userId, identifier }, factor);
}

/**
 * `MethodContext.checkSecret`: a guess takes its attempt before the comparison, in one statement,
 * so of any burst of concurrent guesses at one user's factor at most `account_lock_after + 1` are
 * compared. A guess at a locked or disabled factor is not taken; it fails like a wrong one without
 * a comparison and counts against the IP only, so that a lock cannot be extended forever. A right
 * answer resets this factor's counter only, and proves the factor: no method proves a budgeted
 * factor any other way.
 *
 * Without a `dummy`, a guess with no identified user is refused untaken; with one, an unknown
 * identifier is counted like an account and the dummy costs what a comparison would.
 */
export async function checkSecret<T>(
  run: GuardedRun,
  factor: BudgetedFactor,
  compare: (userId: string) => Promise<Compared<T> | undefined>,
  dummy?: () => Promise<unknown>,
): Promise<{ userId: string; value: T } | undefined> {
  if (!BUDGETED.has(factor)) throw new Error(`checkSecret: the ${factor} method declares no account budget.`);
  const { deps, frame, projectId } = run;
  const userId = frame.u;
  const key = guessKey(run, factor);
  const [signals, rules] = await Promise.all([run.guard.signals(key), run.guard.riskRules()]);
  const counted = userId !== undefined || dummy !== undefined;
  const taken = counted && !deps.risk.blocked(signals.account, rules) && (await deps.risk.takeAttempt(projectId, key, rules));
  let compared: Compared<T> | undefined;
  if (taken && userId !== undefined) compared = await compare(userId);
  else await dummy?.();
  if (compared === undefined || userId === undefined) {
    const reason = userId === undefined ? 'unknown_account' : taken ? 'invalid_credentials' : 'blocked';
    await recordFailedCheck(run, { reason, method: factor, userId, attempt: taken || undefined });
    return undefined;
  }
  await deps.risk.recordSuccess(projectId, key, userId, run.entry.ss, signals, true);
  if (compared.credentialMethods) run.userMethods = { userId, methods: new Set(compared.credentialMethods) };
  await run.recordFactor(compared.payload ? { method: factor, payload: compared.payload } : { method: factor }, userId);
  return { userId, value: compared.value };
}

/** The longest user agent a `login.failed` event keeps. */
const USER_AGENT_MAX = 512;

/**
 * A failed credential check, every method's, recorded once: one failure against the client IP
 * and the event `login.failed` (reason, method, IP, user agent; never what was typed), with
 * `user.locked` when this failure locked a known user's factor, in one transaction.
 */
export async function recordFailedCheck(
  run: Pick<GuardedRun, 'deps' | 'projectId' | 'ctx' | 'frame'>,
  failure: { reason: EventDataMap['login.failed']['reason']; method: string; userId: string | undefined; attempt?: TakenAttempt },
): Promise<void> {
  const { deps, projectId, ctx } = run;
  await deps.events.transaction(async (trx) => {
    await deps.risk.recordIpFailure(projectId, ctx.ip, trx);
    await deps.events.record(trx, {
      type: 'login.failed',
      projectId,
      actor: SYSTEM,
      subjectId: failure.userId ?? null,
      data: { reason: failure.reason, method: failure.method, ip: ctx.ip, user_agent: ctx.userAgent?.slice(0, USER_AGENT_MAX) ?? null, flow_id: run.frame.id },
    });
    const lock = failure.attempt?.lock;
    if (lock && failure.userId !== undefined) {
      await deps.events.record(trx, {
        type: 'user.locked',
        projectId,
        actor: SYSTEM,
        subjectId: failure.userId,
        data: { method: failure.method, failures: failure.attempt!.failures, locked_until: lock.until?.toISOString() ?? null, disabled: lock.disabled, flow_id: run.frame.id },
      });
    }
  });
}

/** The refusals a proof answers with (a wrong or worn-out code, a failed passkey). */
const REFUSALS = new Set(['flow.invalid_credentials', 'flow.code_exhausted']);

/**
 * Runs a method's verification of a proof that has no account budget (a mailed code): its refusal
 * counts one failure against the client IP, as every credential check's does. A budgeted secret's
 * `checkSecret` counts its own.
 */
export async function countingRefusals<T>(run: GuardedRun, method: AuthMethod, work: () => Promise<T>): Promise<T> {
  if (method.budget === 'account') return work();
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && REFUSALS.has(error.code)) {
      await recordFailedCheck(run, { reason: error.code === 'flow.code_exhausted' ? 'code_exhausted' : 'invalid_credentials', method: method.name, userId: run.frame.u });
    }
    throw error;
  }
}

/**
 * `MethodContext.takeMailBudget`: one message of the recipient's budget (DESIGN §4.6a: per
 * project, folded address and window, across flows and purposes), before anything is issued. The
 * key is the typed identifier folded, so unknown addresses cost and answer exactly like known
 * ones: 429 `auth.rate_limited` with `Retry-After` once the budget is spent.
 */
export async function takeMailBudget(run: GuardedRun): Promise<void> {
  await takeRecipientMailBudget(run.deps, run.projectId, await run.guard.riskRules(), run.collectedIdentifier(), { flow_id: run.frame.id });
}
