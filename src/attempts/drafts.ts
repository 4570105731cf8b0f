import type { SqlPart } from '../db/reusable.js';
import type { Clock } from '../core/clock.js';
import { mergeFactors } from '../sessions/levels.js';
import type { SessionService } from '../sessions/service.js';
import { invalidState, newHandoff, toAttempt, type Attempt, type AttemptService, type Handoff, type VerifiedFactorInput } from './service.js';
import type { AttemptRow, AttemptStore, CarriedParts } from './store.js';

/** An attempt that exists only in the memory of one request, until `save` or `handOff` writes it. */
export interface DraftAttempt {
  readonly row: AttemptRow;
  readonly attempt: Attempt;
}

/**
 * Attempts of flows, written late. A flow whose first factor completes it in the same request
 * (a passkey sign-in, a password-only login) needs the attempt only to hand it off: `handOff`
 * writes it already handed off, with its handoff token, in the one statement that ends the flow's
 * run, where the eager path took an INSERT, a read of the target session and a six-statement
 * transaction. A flow that goes on (a second factor, a code to enter) `save`s its draft before its
 * cookie names the attempt.
 *
 * Invariants:
 * - a draft names only a session its flow created or verified itself (the flow cookie is sealed),
 *   so the target-session check of AttemptService.create is not repeated;
 * - a draft's factors follow recordFactor's rules (one user; newest factor per method wins);
 * - `handOff` writes nothing unless its gate (the run's end) returned a row: a flow completes once,
 *   and of concurrent completions of one run exactly one gets a handoff token.
 */
export class AttemptDrafts {
  constructor(
    private readonly attempts: AttemptService,
    private readonly store: AttemptStore,
    private readonly sessions: SessionService,
    private readonly clock: Clock,
  ) {}

  /** A pending attempt for `sessionId` holding its first factor, not written. */
  start(projectId: string, input: { sessionId?: string; firstFactor: VerifiedFactorInput & { userId: string } }): DraftAttempt {
    return drafted(this.attempts.pendingRow(projectId, input));
  }

  /** The draft with one more verified factor (refused, as recordFactor refuses, for another user). */
  withFactor(draft: DraftAttempt, input: VerifiedFactorInput): DraftAttempt {
    const userId = draft.row.user_id!;
    if (input.userId !== undefined && input.userId !== userId) throw invalidState('The factor proves another user than the auth attempt.', draft.row);
    const now = this.clock.now();
    return drafted({ ...draft.row, factors: mergeFactors(draft.row.factors, [this.attempts.factorOf(input, userId)]), updated_at: now });
  }

  /** Writes the draft as the pending attempt it is. */
  async save(draft: DraftAttempt): Promise<void> {
    await this.store.insert(draft.row);
  }

  /**
   * Writes the draft handed off, mints its handoff token and resets its target shell's TTL (as
   * `complete` does), in one statement gated by `gate`, which may carry another domain's parts
   * (`carried`, see AttemptStore.insertHandedOff). `handoff` is undefined, with nothing of this
   * domain written, when the gate returned no row; `report` holds the carried columns.
   */
  async handOff(draft: DraftAttempt, gate: SqlPart, carried?: CarriedParts): Promise<{ handoff?: Handoff; report: Record<string, unknown> }> {
    const { project_id: projectId, session_id: sessionId } = draft.row;
    const settings = sessionId !== null ? await this.sessions.settingsFor(projectId) : undefined;
    const now = this.clock.now();
    const row: AttemptRow = { ...draft.row, state: 'handed_off', updated_at: now, completed_at: now, handed_off_at: now };
    const { row: token, handoff } = newHandoff(projectId, row.id, now);
    const shell =
      sessionId !== null && settings
        ? (written: Parameters<SessionService['store']['extendShellQuery']>[4]) =>
            this.sessions.store.extendShellQuery(projectId, sessionId, now, new Date(now.getTime() + settings.ttl_seconds * 1000), written)
        : undefined;
    const outcome = await this.store.insertHandedOff(row, token, gate, shell, carried);
    if (!outcome.minted) return { report: outcome.report };
    // The shell's cached row (old expiry) is dropped as extendShell drops it.
    if (outcome.also_id !== null && outcome.also_token_hash !== null) this.sessions.forgetRow({ id: outcome.also_id, token_hash: outcome.also_token_hash });
    return { handoff, report: outcome.report };
  }
}

function drafted(row: AttemptRow): DraftAttempt {
  return { row, attempt: toAttempt(row) };
}
