import { AppError } from '../../core/errors.js';
import type { RawBuilder } from 'kysely';
import type { RiskAssessment, RiskRules, RiskSignals } from '../risk/service.js';
import type { RiskSignalRow } from '../risk/store.js';
import type { FlowStepDef } from '../definitions/types.js';
import { topFrame, type FlowCookieState, type FlowEntry, type FlowFrame } from '../state.js';
import type { FlowDeps } from './deps.js';
import type { RequestContext } from './types.js';

/**
 * What one request knows of one concurrent flow before any step runs: its entry in the cookie,
 * the request, and the risk signals the request's credential checks decide from (read once).
 * `FlowRun` (run.ts) adds the steps.
 */
export class RunBase {
  private rules?: RiskRules;
  /** Risk signals read in this request, by account key and user (see `signals`). */
  private risk?: { key: string; signals: Promise<RiskSignals> };
  /** The user a typed identifier names, looked up once per request (see `userNamed`). */
  private named?: { schemaId: string; identifier: string; userId: Promise<string | undefined> };

  constructor(
    readonly deps: FlowDeps,
    readonly state: FlowCookieState,
    readonly key: string,
    readonly entry: FlowEntry,
    readonly ctx: RequestContext,
  ) {}

  get projectId(): string {
    return this.entry.p;
  }

  get frame(): FlowFrame {
    return topFrame(this.entry);
  }

  async riskRules(): Promise<RiskRules> {
    this.rules ??= (await this.deps.flowSettings.flowSettings(this.projectId)).risk;
    return this.rules;
  }

  /**
   * The risk signals of this submit, read once: the deny check, the captcha decision and the
   * lock-out check of the password all decide from the same read. `forgetSignals` after the
   * step's work, which may have changed what they count.
   */
  signals(accountKey?: string): Promise<RiskSignals> {
    const userId = this.frame.u;
    const key = `${accountKey ?? ''}\0${userId ?? ''}`;
    if (this.risk?.key !== key) {
      this.risk = { key, signals: this.deps.risk.signals(this.projectId, { ip: this.ctx.ip, accountKey, userId, sessionId: this.entry.ss }) };
    }
    return this.risk.signals;
  }

  /**
   * The signals' statement for another read to carry along (one round trip for both); `primed`
   * hands this run the row that read brought back, so that the checks that follow use it.
   */
  signalsAlongside(accountKey?: string): { query: RawBuilder<RiskSignalRow>; primed(row: Promise<RiskSignalRow>): void } {
    const userId = this.frame.u;
    const request = this.deps.risk.signalsRequest(this.projectId, { ip: this.ctx.ip, accountKey, userId, sessionId: this.entry.ss });
    return {
      query: request.query,
      primed: (row) => {
        this.risk = { key: `${accountKey ?? ''}\0${userId ?? ''}`, signals: row.then(request.read) };
      },
    };
  }

  forgetSignals(): void {
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
      const userId = this.deps.users.findByIdentifier(this.projectId, schemaId, identifier).then((user) => user?.id);
      this.named = { schemaId, identifier, userId };
    }
    return this.named.userId;
  }

  async assess(accountKey?: string): Promise<RiskAssessment> {
    return this.deps.risk.assess(await this.signals(accountKey), await this.riskRules());
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
