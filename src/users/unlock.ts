import type { Container } from '../container.js';
import { identifierValues } from '../passwords/service.js';
import type { User } from './service.js';

/**
 * Lifts a user's lock-out and "disabled until reset" state: of the password and of the second
 * factors (TOTP, recovery codes), each counted per user in the flow engine's risk counters
 * (src/flows/risk), and of the identifiers they sign in with, where failures were once counted.
 * Used by `POST /users/{id}/unlock` and `gatehouse user unlock`.
 */
export async function unlockUser({ users, flows, db }: Pick<Container, 'users' | 'flows' | 'db'>, user: User): Promise<void> {
  const schema = await users.schemaOf(user);
  await flows.risk.liftLocks(db, user.projectId, { userId: user.id, identifiers: identifierValues(schema, user.attributes) }, flows.risk.budgetedFactors);
}
