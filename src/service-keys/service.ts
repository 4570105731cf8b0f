import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import { digestsEqual, randomSecret, sha256Hex } from '../core/crypto.js';
import { AppError } from '../core/errors.js';
import type { IdGenerator } from '../core/ids.js';
import type { Page, PageRequest, Paginator } from '../core/pagination.js';
import { isScope, SCOPES } from '../core/scopes.js';
import type { Database } from '../db/schema.js';
import type { EventLog } from '../events/service.js';
import { SYSTEM, type Actor } from '../events/types.js';
import type { ServiceKeyRow, ServiceKeyStore } from './store.js';

export interface ServiceKey {
  id: string;
  project_id: string;
  name: string;
  client_id: string;
  scopes: string[];
  created_at: string;
}

export interface CreatedServiceKey extends ServiceKey {
  client_secret: string;
}

export interface VerifiedClient {
  projectId: string;
  clientId: string;
  scopes: string[];
}

export const SERVICE_KEY_SECRET_PREFIX = 'gh_sk_';

/** Runs inside the transaction that deletes a key (the OAuth plane revokes its tokens there). */
export type ServiceKeyDeletedHook = (trx: Kysely<Database>, projectId: string, clientId: string) => Promise<void>;

function toServiceKey(row: ServiceKeyRow): ServiceKey {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    client_id: row.client_id,
    scopes: row.scopes,
    created_at: row.created_at.toISOString(),
  };
}

/** Service keys are the project's OAuth2 confidential clients (client credentials grant). */
export class ServiceKeyService {
  private readonly deletedHooks: ServiceKeyDeletedHook[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: ServiceKeyStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly paginator: Paginator,
    private readonly events: EventLog,
  ) {}

  async create(projectId: string, input: { name?: string; scopes: string[] }, actor: Actor = SYSTEM): Promise<CreatedServiceKey> {
    const unknown = input.scopes.filter((scope) => !isScope(scope));
    if (unknown.length > 0) {
      throw new AppError('req.invalid', 'Unknown scopes.', {
        errors: unknown.map((scope) => ({ path: 'body/scopes', message: `unknown scope "${scope}"` })),
        known_scopes: [...SCOPES],
      });
    }
    const secret = randomSecret(SERVICE_KEY_SECRET_PREFIX);
    const id = this.ids.next('key');
    const row: ServiceKeyRow = {
      id,
      project_id: projectId,
      name: input.name ?? id,
      client_id: id,
      secret_hash: sha256Hex(secret),
      scopes: [...new Set(input.scopes)],
      created_at: this.clock.now(),
      last_used_at: null,
    };
    await this.events.transaction(async (trx) => {
      await this.store.with(trx).insert(row);
      await this.events.record(trx, { type: 'service_key.created', projectId, actor, subjectId: row.id, data: { name: row.name, scopes: row.scopes } });
    });
    return { ...toServiceKey(row), client_secret: secret };
  }

  async list(projectId: string, request: PageRequest): Promise<Page<ServiceKey>> {
    const scope = `service_keys:${projectId}`;
    const cursor = request.pageToken ? this.paginator.decode(request.pageToken, scope) : undefined;
    const limit = this.paginator.limitOf(request);
    const rows = await this.store.list(projectId, cursor, limit);
    return this.paginator.page(rows, limit, scope, (row) => ({ createdAt: row.created_at, id: row.id }), toServiceKey);
  }

  onDeleted(hook: ServiceKeyDeletedHook): void {
    this.deletedHooks.push(hook);
  }

  /** Idempotent; the key's outstanding access tokens stop working in the same transaction. */
  async delete(projectId: string, id: string, actor: Actor = SYSTEM): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const clientId = await this.store.with(trx).delete(projectId, id);
      if (clientId === undefined) return;
      for (const hook of this.deletedHooks) await hook(trx, projectId, clientId);
      await this.events.record(trx, { type: 'service_key.deleted', projectId, actor, subjectId: id, data: {} });
    });
  }

  /** Checks a client id and secret; the same work is done whether or not the client exists. */
  async verify(clientId: string, secret: string): Promise<VerifiedClient | undefined> {
    const row = clientId.length <= 64 ? await this.store.findByClientId(clientId) : undefined;
    const matches = digestsEqual(sha256Hex(secret), row?.secret_hash ?? sha256Hex('no such client'));
    if (!row || !matches) return undefined;
    return { projectId: row.project_id, clientId: row.client_id, scopes: row.scopes };
  }
}
