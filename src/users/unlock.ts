import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { EventLog } from '../events/service.js';
import { SYSTEM, type Actor } from '../events/types.js';
import { identifierValues } from '../passwords/service.js';
import type { User, UserService } from './service.js';

/** The part of the flow engine's risk service (src/flows/risk) that unlocking uses; users sit below the flows layer. */
export interface LockLifter {
  readonly budgetedFactors: readonly string[];
  liftLocks(trx: Kysely<Database>, projectId: string, account: { userId: string; identifiers: string[] }, factors: readonly string[]): Promise<void>;
}

export interface UnlockDeps {
  events: EventLog;
  users: UserService;
  flows: { risk: LockLifter };
}

/**
 * Lifts a user's lock-out and "disabled until reset" state: of the password and of the second
 * factors (TOTP, recovery codes), each counted per user in the flow engine's risk counters
 * (src/flows/risk), and of the identifiers they sign in with, where failures were once counted.
 * Used by `POST /users/{id}/unlock` and `gatehouse user unlock`.
 */
export async function unlockUser({ users, flows, events }: UnlockDeps, user: User, actor: Actor = SYSTEM): Promise<void> {
  const schema = await users.schemaOf(user);
  await events.transaction(async (trx) => {
    await flows.risk.liftLocks(trx, user.projectId, { userId: user.id, identifiers: identifierValues(schema, user.attributes) }, flows.risk.budgetedFactors);
    await events.record(trx, { type: 'user.unlocked', projectId: user.projectId, actor, subjectId: user.id, data: {} });
  });
}
