import type { Container } from '../container.js';
import { identifierValues } from '../passwords/service.js';
import type { User } from './service.js';

/**
 * Lifts a user's password lock-out and "disabled until reset" state. The lock-out lives in the
 * flow engine's risk counters (src/flows/risk), keyed by the identifiers the user signs in with;
 * used by `POST /users/{id}/unlock` and `gatehouse user unlock`.
 */
export async function unlockUser({ users, flows, db }: Pick<Container, 'users' | 'flows' | 'db'>, user: User): Promise<void> {
  const schema = await users.schemaOf(user);
  await flows.risk.liftLocks(db, user.projectId, identifierValues(schema, user.attributes));
}
