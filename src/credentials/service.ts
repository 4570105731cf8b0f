import { notFound } from '../core/errors.js';
import { looksLikeId } from '../core/ids.js';
import type { Actor } from '../events/types.js';
import type { UserService } from '../users/service.js';
import type { CredentialListStore } from './store.js';

const credentialNotFound = () => notFound('cred.not_found', 'The credential');

/** One credential as the API shows it (DESIGN §4.9): never a secret, hash or key. */
export interface CredentialResource {
  id: string;
  method: string;
  name: string | null;
  created_at: string;
  last_used_at: string | null;
}

/**
 * Operators' view of a user's sign-in credentials, every method from the one `credentials`
 * table: list them, remove one. Removing the last one is allowed (the user then signs in only
 * through recovery or a new enrollment) and audited like every removal.
 */
export class CredentialService {
  constructor(
    private readonly store: CredentialListStore,
    private readonly users: UserService,
  ) {}

  /** 404 `user.not_found` for a user outside `projectId` (undefined = admin, any project). */
  async list(projectId: string | undefined, userId: string): Promise<CredentialResource[]> {
    const user = await this.users.get(projectId, userId);
    const rows = await this.store.list(user.projectId, user.id);
    return rows.map((row) => ({
      id: row.id,
      method: row.method,
      name: row.name,
      created_at: row.created_at.toISOString(),
      last_used_at: row.last_used_at ? row.last_used_at.toISOString() : null,
    }));
  }

  /** Deletes the credential and audits `<method> removed` in one transaction; 404 `cred.not_found` when it is not this user's. */
  async remove(projectId: string | undefined, userId: string, credentialId: string, actor: Actor): Promise<void> {
    const user = await this.users.get(projectId, userId);
    if (!looksLikeId(credentialId, 'cred')) throw credentialNotFound();
    await this.store.transaction(async (trx) => {
      const method = await this.store.with(trx).delete(user.projectId, user.id, credentialId);
      if (method === undefined) throw credentialNotFound();
      await this.users.audit(trx, user, { attribute: method, action: 'removed', actor, credentialId });
    });
  }
}
