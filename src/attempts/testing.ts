import type { Attempt, AttemptService, VerifiedFactorInput } from './service.js';

/**
 * Test-only: a completed auth attempt for a user, as a flow would leave it after verifying the
 * factors. Never registered on a route; import it from tests (and, until flows exist, from
 * other domains' tests) only.
 *
 * Without `factors`, one `password` factor verified now is recorded.
 */
export async function createCompletedAttempt(
  attempts: AttemptService,
  projectId: string,
  userId: string,
  options: { sessionId?: string; factors?: Array<Omit<VerifiedFactorInput, 'userId'>> } = {},
): Promise<Attempt> {
  const attempt = await attempts.create(projectId, { sessionId: options.sessionId, userId });
  for (const factor of options.factors ?? [{ method: 'password' }]) {
    await attempts.recordFactor(projectId, attempt.id, factor);
  }
  return attempts.complete(projectId, attempt.id);
}
