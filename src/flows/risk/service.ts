import { createHash } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import type { IdGenerator } from '../../core/ids.js';
import { normaliseIdentifier } from '../../users/identifiers.js';
import type { RiskStore } from './store.js';

/**
 * Abuse-protection rules (DESIGN §4.6a), configurable per project under the flow settings' `risk`.
 * Documented in docs/flows.md.
 */
export interface RiskRules {
  /** Consecutive password failures tolerated before the first lock (the 5th failure locks). */
  account_lock_after: number;
  account_lock_seconds: number;
  account_lock_max_seconds: number;
  /** Consecutive failures after which the password is disabled until reset. */
  account_disable_after: number;
  /** Failures of one account (known or not) that make the captcha gate mandatory for it. */
  account_captcha_after: number;
  /** Failed credential checks per IP and minute above which the captcha gate is mandatory. */
  ip_captcha_after: number;
  /** ... above which submits are refused with 429 auth.rate_limited. */
  ip_block_after: number;
  /** Score added when a known user signs in from a fingerprint never seen for them. */
  new_fingerprint_score: number;
  /** Score at which the captcha gate becomes mandatory. */
  captcha_score: number;
}

export const RISK_DEFAULTS: RiskRules = {
  account_lock_after: 4,
  account_lock_seconds: 10,
  account_lock_max_seconds: 300,
  account_disable_after: 100,
  account_captcha_after: 10,
  ip_captcha_after: 20,
  ip_block_after: 100,
  new_fingerprint_score: 30,
  captcha_score: 50,
};

export function riskRules(overrides: unknown): RiskRules {
  const rules = { ...RISK_DEFAULTS };
  if (typeof overrides === 'object' && overrides !== null) {
    for (const [key, value] of Object.entries(overrides)) {
      if (key in rules && typeof value === 'number' && Number.isFinite(value) && value >= 0) (rules as unknown as Record<string, number>)[key] = value;
    }
  }
  return rules;
}

export interface RiskAssessment {
  score: number;
  reasons: string[];
  decision: 'allow' | 'captcha' | 'deny';
  retryAfterSeconds?: number;
}

const MINUTE = 60_000;

/** Lock length after `failures` consecutive failures: none up to the threshold, then doubling. */
export function lockSeconds(failures: number, rules: RiskRules): number {
  if (failures <= rules.account_lock_after) return 0;
  const doublings = failures - rules.account_lock_after - 1;
  return Math.min(rules.account_lock_max_seconds, rules.account_lock_seconds * 2 ** Math.min(doublings, 30));
}

export class RiskService {
  constructor(
    private readonly store: RiskStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /**
   * Accounts are keyed by the identifier typed, so unknown identifiers are throttled like real ones.
   * It is folded exactly as user lookup folds it (`normaliseIdentifier`): every spelling that signs
   * in to one user (`KIM@`, `kım@`) shares one counter, and a password reset can clear it from the
   * stored attribute value.
   */
  accountKey(projectId: string, identifier: string): string {
    return createHash('sha256').update(`${projectId}\0${normaliseIdentifier(identifier) ?? ''}`).digest('hex');
  }

  private windowStart(now: Date): Date {
    return new Date(Math.floor(now.getTime() / MINUTE) * MINUTE);
  }

  /** Locked (temporarily) or disabled (until a reset): answered exactly like a wrong password. */
  async accountBlocked(projectId: string, accountKey: string, rules: RiskRules): Promise<boolean> {
    const state = await this.store.accountState(projectId, accountKey);
    if (!state) return false;
    if (state.failures >= rules.account_disable_after) return true;
    return state.locked_until !== null && state.locked_until.getTime() > this.clock.now().getTime();
  }

  async recordFailure(projectId: string, accountKey: string | undefined, ip: string, rules: RiskRules): Promise<void> {
    const now = this.clock.now();
    await this.store.addIpFailure(projectId, ip, this.windowStart(now));
    if (accountKey === undefined) return;
    const failures = await this.store.addAccountFailure(projectId, accountKey, now);
    const seconds = lockSeconds(failures, rules);
    if (seconds > 0) await this.store.lockAccount(projectId, accountKey, new Date(now.getTime() + seconds * 1000));
  }

  /** A success resets the account's failures and remembers the fingerprint it came from. */
  async recordSuccess(projectId: string, accountKey: string, userId: string, sessionId: string): Promise<void> {
    await this.store.clearAccount(projectId, accountKey);
    const fingerprint = await this.store.latestFingerprint(sessionId);
    if (fingerprint) await this.store.rememberFingerprint(projectId, userId, this.fingerprintHash(fingerprint), this.clock.now());
  }

  /** A password reset re-enables a disabled password. */
  async resetAccount(projectId: string, accountKey: string): Promise<void> {
    await this.store.clearAccount(projectId, accountKey);
  }

  private fingerprintHash(fingerprint: string): string {
    return createHash('sha256').update(fingerprint).digest('hex');
  }

  /** Scores a submit before its credential is checked. */
  async evaluate(projectId: string, input: { ip: string; accountKey?: string; userId?: string; sessionId: string }, rules: RiskRules): Promise<RiskAssessment> {
    const now = this.clock.now();
    const reasons: string[] = [];
    let score = 0;
    const windowStart = this.windowStart(now);
    const ipFailures = await this.store.ipFailures(projectId, input.ip, windowStart);
    if (ipFailures > rules.ip_block_after) {
      const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + MINUTE - now.getTime()) / 1000));
      return { score: 100, reasons: ['ip_failure_velocity'], decision: 'deny', retryAfterSeconds };
    }
    if (ipFailures > rules.ip_captcha_after) {
      score += rules.captcha_score;
      reasons.push('ip_failure_velocity');
    }
    if (input.accountKey !== undefined) {
      const state = await this.store.accountState(projectId, input.accountKey);
      if (state && state.failures >= rules.account_captcha_after) {
        score += rules.captcha_score;
        reasons.push('account_failure_velocity');
      }
    }
    if (input.userId !== undefined) {
      const fingerprint = await this.store.latestFingerprint(input.sessionId);
      if (fingerprint) {
        const known = await this.store.knownFingerprints(projectId, input.userId);
        if (known.length > 0 && !known.includes(this.fingerprintHash(fingerprint))) {
          score += rules.new_fingerprint_score;
          reasons.push('new_fingerprint');
        }
      }
    }
    return { score, reasons, decision: score >= rules.captcha_score ? 'captcha' : 'allow' };
  }

  async recordEvent(input: { projectId: string; flowId: string; sessionId: string; type: string; payload: Record<string, unknown>; ip?: string }): Promise<string> {
    const id = this.ids.next('evt');
    await this.store.insertEvent({
      id,
      project_id: input.projectId,
      flow_id: input.flowId,
      session_id: input.sessionId,
      type: input.type,
      payload: input.payload,
      ip: input.ip ?? null,
      created_at: this.clock.now(),
    });
    return id;
  }
}
