import { createHash } from 'node:crypto';
import type { Kysely, RawBuilder, SqlBool } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { IdGenerator } from '../../core/ids.js';
import type { Database } from '../../db/schema.js';
import type { SqlPart } from '../../db/reusable.js';
import type { RiskTables } from '../../db/tables/flows.js';
import { normaliseIdentifier } from '../../users/identifiers.js';
import type { RiskSignalRow, RiskStore, SignalsInput } from './store.js';

/** A client-side event of a flow (`POST /flow/{id}/event`). */
export type EventInput = { projectId: string; flowId: string; sessionId: string; type: string; payload?: Record<string, unknown>; ip?: string };

/** Whose signals a submit reads: the client's IP, its session, and the account and user when known. */
export type SignalsFor = { ip: string; accountKey?: string; userId?: string; sessionId: string };

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
  /** Messages per recipient address (codes, links, recovery) per window; 0 lifts the limit. */
  mail_per_recipient: number;
  /** ... the window, in seconds (at most a day). */
  mail_per_recipient_window_seconds: number;
  /** Flows one client IP may start per project and minute (each stores rows); 0 lifts the limit. */
  ip_flow_starts_per_minute: number;
  /** OAuth authorization requests (`/auth/authorize`, each stores one) per client IP, project and minute; 0 lifts the limit. */
  ip_authorizations_per_minute: number;
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
  mail_per_recipient: 5,
  mail_per_recipient_window_seconds: 900,
  ip_flow_starts_per_minute: 300,
  ip_authorizations_per_minute: 300,
};

export function riskRules(overrides: unknown): RiskRules {
  const rules = { ...RISK_DEFAULTS };
  if (typeof overrides === 'object' && overrides !== null) {
    for (const [key, value] of Object.entries(overrides)) {
      if (key in rules && typeof value === 'number' && Number.isFinite(value) && value >= 0) (rules as unknown as Record<string, number>)[key] = value;
    }
  }
  rules.mail_per_recipient_window_seconds = Math.min(rules.mail_per_recipient_window_seconds, 86_400);
  return rules;
}

export interface RiskAssessment {
  score: number;
  reasons: string[];
  decision: 'allow' | 'captcha' | 'deny';
  retryAfterSeconds?: number;
}

/**
 * What the rules look at for one submit (ip, account, user, session), read in one statement.
 * A request reads it once before the step's work and decides everything from it: whether to
 * refuse, whether the captcha is mandatory, whether the account is locked.
 */
export interface RiskSignals {
  windowStart: Date;
  ipFailures: number;
  /** the account's failure row; undefined when it has none (or no account was named) */
  account?: { failures: number; locked_until: Date | null };
  fingerprint?: string;
  known: string[];
}

const MINUTE = 60_000;

/**
 * The secrets whose wrong guesses are counted per user and factor, each with its own lock-out
 * (DESIGN §4.6a): the built-in methods that declare `budget: 'account'` (the password, TOTP and
 * recovery codes; the method catalog test holds this list equal to the registry's). Mailed codes
 * have a budget per code instead; a step that checks one decides its captcha from the password's
 * counter. The flows module hands the service the registry's list (`budgetedFactors`), so a
 * method added later is counted, unlocked and forgotten with the rest.
 */
export const BUDGETED_FACTORS: readonly string[] = ['password', 'totp', 'recovery_code'];
/** The name of a method whose secret has an account budget. */
export type BudgetedFactor = string;

/** Lock length after `failures` consecutive failures: none up to the threshold, then doubling. */
export function lockSeconds(failures: number, rules: RiskRules): number {
  if (failures <= rules.account_lock_after) return 0;
  const doublings = failures - rules.account_lock_after - 1;
  return Math.min(rules.account_lock_max_seconds, rules.account_lock_seconds * 2 ** Math.min(doublings, 30));
}

/** A guess taken from an account's budget; `lock` when its failure locks or disables the account. */
export interface TakenAttempt {
  failures: number;
  lock?: { until: Date | null; disabled: boolean };
}

export class RiskService {
  constructor(
    private readonly store: RiskStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    /** every factor counted per user: `unlockUser` lifts, and a deleted user forgets, all of them */
    readonly budgetedFactors: readonly string[] = BUDGETED_FACTORS,
  ) {}

  /**
   * The key of a typed identifier, folded exactly as user lookup folds it (`normaliseIdentifier`),
   * so that every spelling of one address (`KIM@`, `kım@`) has one key: the failure counter of an
   * identifier that names no user (`accountKeyFor`), and the mail budget of an address.
   */
  accountKey(projectId: string, identifier: string): string {
    return createHash('sha256').update(`${projectId}\0${normaliseIdentifier(identifier) ?? ''}`).digest('hex');
  }

  /**
   * The failure counter a guess at a secret counts against (DESIGN §4.6a), derived here only.
   * Once the identifier names a user, the user's counter of that factor: an account with an e-mail
   * and a username has one budget, not two, and a right password leaves the second factors'
   * counters alone. An identifier that names no user keeps a counter of its own (its folded
   * `accountKey`), so unknown accounts lock after as many guesses as known ones. The two kinds
   * cannot collide: a user key's input starts with `user`, an identifier key's with the project id.
   */
  accountKeyFor(projectId: string, account: { userId?: string; identifier: string }, factor: BudgetedFactor): string {
    return account.userId === undefined ? this.accountKey(projectId, account.identifier) : this.userKey(projectId, account.userId, factor);
  }

  /** The counter of one factor of a user (`accountKeyFor` once the identifier named the user). */
  private userKey(projectId: string, userId: string, factor: BudgetedFactor): string {
    return createHash('sha256').update(`user\0${projectId}\0${userId}\0${factor}`).digest('hex');
  }

  private windowStart(now: Date): Date {
    return new Date(Math.floor(now.getTime() / MINUTE) * MINUTE);
  }

  /** Locked (temporarily) or disabled (until a reset): answered exactly like a wrong password. */
  async accountBlocked(projectId: string, accountKey: string, rules: RiskRules): Promise<boolean> {
    return this.blocked(await this.store.accountState(projectId, accountKey), rules);
  }

  /** `accountBlocked` from signals read with the account's key. */
  blocked(account: RiskSignals['account'], rules: RiskRules): boolean {
    if (!account) return false;
    if (account.failures >= rules.account_disable_after) return true;
    return account.locked_until !== null && account.locked_until.getTime() > this.clock.now().getTime();
  }

  /** Reads the signals of a submit (one statement); `assess` and `blocked` decide from them. */
  async signals(projectId: string, input: SignalsFor): Promise<RiskSignals> {
    const request = this.signalsRequest(projectId, input);
    return request.read(await this.store.signals(request.input));
  }

  /** The signals' statement without running it (another read carries it along), and how to read its row. */
  signalsRequest(projectId: string, input: SignalsFor): { input: SignalsInput; query: RawBuilder<RiskSignalRow>; read(row: RiskSignalRow): RiskSignals } {
    const windowStart = this.windowStart(this.clock.now());
    const full: SignalsInput = { projectId, windowStart, ...input };
    return {
      input: full,
      query: this.store.signalsQuery(full),
      read: (row) => {
        const fingerprint = row.fingerprint_event?.fingerprint;
        return {
          windowStart,
          ipFailures: row.ip_failures ?? 0,
          account: row.account_failures === null ? undefined : { failures: row.account_failures, locked_until: row.locked_until },
          fingerprint: typeof fingerprint === 'string' ? fingerprint : undefined,
          known: row.known,
        };
      },
    };
  }

  /**
   * Takes a password guess at an account before the password is compared (DESIGN §4.6a): false
   * when the account is locked or disabled, and then the guess must fail like a wrong password
   * without a comparison. A taken guess already counts as a failure until `recordSuccess`; what
   * it earns should the comparison fail is in the answer (`lock`: this guess set a lock, or
   * disabled the account).
   */
  async takeAttempt(projectId: string, accountKey: string, rules: RiskRules): Promise<TakenAttempt | undefined> {
    const now = this.clock.now();
    const first = lockSeconds(1, rules);
    const taken = await this.store.takeAttempt(projectId, accountKey, now, {
      lockAfter: rules.account_lock_after,
      lockSeconds: rules.account_lock_seconds,
      lockMaxSeconds: rules.account_lock_max_seconds,
      disableAfter: rules.account_disable_after,
      firstLockUntil: first > 0 ? new Date(now.getTime() + first * 1000) : null,
    });
    if (taken === undefined) return undefined;
    const disabled = taken.failures >= rules.account_disable_after;
    // The guess was taken only where no lock held, so a lock in the future is this guess's own.
    const locked = taken.locked_until !== null && taken.locked_until.getTime() > now.getTime();
    return { failures: taken.failures, ...(locked || disabled ? { lock: { until: locked ? taken.locked_until : null, disabled } } : {}) };
  }

  /** A failed credential check of the client's IP (the account's was counted when the guess was taken); in `trx` when given. */
  async recordIpFailure(projectId: string, ip: string, trx?: Kysely<Database>): Promise<void> {
    await (trx ? this.store.with(trx) : this.store).addIpFailure(projectId, ip, this.windowStart(this.clock.now()));
  }

  async recordFailure(projectId: string, accountKey: string | undefined, ip: string, rules: RiskRules): Promise<void> {
    const now = this.clock.now();
    if (accountKey === undefined) {
      await this.store.addIpFailure(projectId, ip, this.windowStart(now));
      return;
    }
    const failures = await this.store.addFailures(projectId, ip, this.windowStart(now), accountKey, now);
    const seconds = lockSeconds(failures, rules);
    if (seconds > 0) await this.store.lockAccount(projectId, accountKey, new Date(now.getTime() + seconds * 1000));
  }

  /**
   * A success resets the account's failures and remembers the fingerprint it came from. With
   * the signals this request read before checking the credential, there is nothing to read and
   * nothing to write when the account had no failures, no guess was `taken` and the session sent
   * no fingerprint.
   */
  async recordSuccess(projectId: string, accountKey: string, userId: string, sessionId: string, signals?: RiskSignals, taken = false): Promise<void> {
    if (taken || !signals || signals.account) await this.store.clearAccounts(projectId, [accountKey]);
    const fingerprint = signals ? signals.fingerprint : await this.store.latestFingerprint(sessionId);
    if (fingerprint) await this.store.rememberFingerprint(projectId, userId, this.fingerprintHash(fingerprint), this.clock.now());
  }

  /**
   * Lifts the lock-out and the "disabled until reset" state of these factors of the user (DESIGN
   * §4.6a), in the caller's transaction, with the counters of the identifiers they sign in with
   * (where failures were counted before they were counted per user). A new password lifts the
   * password's only: it is no reason to allow more guesses at a second factor.
   */
  async liftLocks(trx: Kysely<Database>, projectId: string, account: { userId: string; identifiers: string[] }, factors: readonly BudgetedFactor[] = ['password']): Promise<void> {
    const keys = [...factors.map((factor) => this.userKey(projectId, account.userId, factor)), ...account.identifiers.map((value) => this.accountKey(projectId, value))];
    await this.store.with(trx).clearAccounts(projectId, keys);
  }

  /** Forgets the user's failure counters, with the user (in the deletion's transaction). */
  async forgetUser(trx: Kysely<Database>, projectId: string, userId: string): Promise<void> {
    await this.store.with(trx).clearAccounts(projectId, this.budgetedFactors.map((factor) => this.userKey(projectId, userId, factor)));
  }

  private fingerprintHash(fingerprint: string): string {
    return createHash('sha256').update(fingerprint).digest('hex');
  }

  /** Scores a submit before its credential is checked. */
  async evaluate(projectId: string, input: { ip: string; accountKey?: string; userId?: string; sessionId: string }, rules: RiskRules): Promise<RiskAssessment> {
    return this.assess(await this.signals(projectId, input), rules);
  }

  /**
   * `evaluate` from signals. The account's failures count only when the signals were read with
   * its key, a new fingerprint only when they were read with a user (`known` is empty otherwise).
   */
  assess(signals: RiskSignals, rules: RiskRules): RiskAssessment {
    const now = this.clock.now();
    const reasons: string[] = [];
    let score = 0;
    const { windowStart, ipFailures } = signals;
    if (ipFailures > rules.ip_block_after) {
      const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + MINUTE - now.getTime()) / 1000));
      return { score: 100, reasons: ['ip_failure_velocity'], decision: 'deny', retryAfterSeconds };
    }
    if (ipFailures > rules.ip_captcha_after) {
      score += rules.captcha_score;
      reasons.push('ip_failure_velocity');
    }
    if (signals.account && signals.account.failures >= rules.account_captcha_after) {
      score += rules.captcha_score;
      reasons.push('account_failure_velocity');
    }
    const { fingerprint, known } = signals;
    if (fingerprint && known.length > 0 && !known.includes(this.fingerprintHash(fingerprint))) {
      score += rules.new_fingerprint_score;
      reasons.push('new_fingerprint');
    }
    return { score, reasons, decision: score >= rules.captcha_score ? 'captcha' : 'allow' };
  }

  async recordEvent(input: EventInput): Promise<string> {
    const row = this.eventRow(input);
    await this.store.insertEvent(row);
    return row.id;
  }

  /** `recordEvent` as a data-modifying query written only where `when` holds (the flow's event budget, `WriteGate`). */
  recordEventQuery(input: EventInput, when: SqlPart<SqlBool>): SqlPart {
    return this.store.insertEventQuery(this.eventRow(input), when);
  }

  private eventRow(input: EventInput): RiskTables['flow_events'] {
    return {
      id: this.ids.next('evt'),
      project_id: input.projectId,
      flow_id: input.flowId,
      session_id: input.sessionId,
      type: input.type,
      payload: input.payload ?? null,
      ip: input.ip ?? null,
      created_at: this.clock.now(),
    };
  }
}
