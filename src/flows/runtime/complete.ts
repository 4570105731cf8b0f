import type { Handoff } from '../../attempts/service.js';
import { AppError } from '../../core/errors.js';
import { flowCompleted, tombstone } from '../state.js';
import type { FlowDeps } from './deps.js';
import type { FlowRun } from './run.js';
import type { FlowResult } from './types.js';
import type { FlowResponse } from '../view.js';

/**
 * Completes a flow whose whole stack is complete: hands its attempt off (when it proved a factor)
 * and consumes its live run in the same transaction, then answers with the handoff token and a
 * tombstone in place of the flow's entry. `keepResult` keeps the answer in the tombstone for the
 * first read (an SSO callback completed the flow, DESIGN §4.14).
 */
export async function complete(deps: FlowDeps, run: FlowRun, body: FlowResponse, keepResult: boolean): Promise<FlowResult> {
  const { frame } = run;
  // A flow completes once: its live run is consumed in the transaction that hands off (or on its
  // own), so a `_zflow` captured before completion and replayed after it answers 410.
  const consumeRun = async (trx?: Parameters<typeof deps.definitions.endRun>[1]) => {
    // Inside the hand-off's transaction: why it ended is read after it (one connection on PGlite).
    if (!(await deps.definitions.endRun(frame.id, trx))) throw flowCompleted(frame.id);
  };
  if (run.draft && run.draft.row.id === run.entry.a) {
    // The usual completion: the attempt this request drafted, written handed off in one statement
    // with the run's end (and a pending single use, which the run's end then requires).
    const use = run.pendingUse;
    run.pendingUse = undefined;
    const { handoff, report } = await deps.drafts.handOff(run.draft, deps.definitions.endRunQuery(frame.id, use?.parts.held), use?.parts);
    if (!handoff) {
      await use?.check(report);
      throw await run.endedBecause();
    }
    run.draft = undefined;
    return withHandoff(deps, run, body, handoff, keepResult);
  }
  await run.settleUse();
  const known = run.entry.a !== undefined && run.attempt?.id === run.entry.a ? run.attempt : undefined;
  const attempt = known ?? (run.entry.a !== undefined ? await deps.attempts.get(run.projectId, run.entry.a).catch(() => undefined) : undefined);
  try {
    const handoff = attempt && attempt.factors.length > 0 ? await deps.attempts.completeAndHandOff(run.projectId, attempt.id, { alongside: consumeRun }) : undefined;
    if (!handoff) await consumeRun();
    return await withHandoff(deps, run, body, handoff, keepResult);
  } catch (error) {
    if (error instanceof AppError && error.code === 'flow.completed') throw await run.endedBecause();
    throw error;
  }
}

/** The answer of a completed flow: its handoff token, and a tombstone in place of its entry. */
async function withHandoff(deps: FlowDeps, run: FlowRun, body: FlowResponse, handoff: Handoff | undefined, keepResult = false): Promise<FlowResult> {
  if (handoff) {
    body.handoff_token = handoff.handoff_token;
    body.handoff_token_expires_at = handoff.handoff_token_expires_at;
  }
  run.state.flows[run.key] = tombstone(run.entry, run.frame.id);
  if (keepResult) run.state.flows[run.key].rs = body;
  const cookie = await deps.codec.encode(run.state, deps.clock.now());
  return { body, cookie };
}
