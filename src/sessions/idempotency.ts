import type { Kysely } from 'kysely';
import { seal, unseal } from '../core/sealed.js';
import type { Clock } from '../core/clock.js';
import { digestsEqual, sha256Hex } from '../core/crypto.js';
import { AppError } from '../core/errors.js';
import type { KeyRing } from '../core/keys.js';
import type { Database } from '../db/schema.js';
import { IdempotencyStore } from './store.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Handoff creation and exchange replay an earlier response this long (DESIGN §4.4). */
export const IDEMPOTENCY_WINDOW_MS = 5 * 60 * 1000;
const KEY_PURPOSE = 'idempotency-records';

/** `Idempotency-Key`: 1-255 visible ASCII characters; anything else is a 400. */
export function idempotencyKeyOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const raw = headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(raw)) {
    throw new AppError('req.invalid', 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.', {
      errors: [{ path: 'headers/idempotency-key', message: 'must be 1 to 255 visible ASCII characters' }],
    });
  }
  return raw;
}

/**
 * Replays of responses for a repeated `Idempotency-Key`. Responses carry tokens, so they are
 * stored sealed with AES-256-GCM under a key derived from GATEHOUSE_SECRET (rotation: the newest
 * key seals, every key opens). A key reused with a different request answers 409
 * `req.idempotency_conflict` instead of replaying someone else's response.
 */
export class Idempotency {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly keys: KeyRing,
    private readonly clock: Clock,
  ) {}

  private seal(value: unknown): string {
    return seal(this.keys, KEY_PURPOSE, JSON.stringify(value));
  }

  private open(sealed: string): unknown {
    const plain = unseal(this.keys, KEY_PURPOSE, sealed);
    return plain === undefined ? undefined : JSON.parse(plain);
  }

  /** The earlier response for this key, or undefined; 409 when the key named another request. */
  async replay<T>(db: Kysely<Database> | undefined, projectId: string, operation: string, key: string, request: string): Promise<T | undefined> {
    const store = db ? this.store.with(db) : this.store;
    const record = await store.find(projectId, operation, key, this.clock.now());
    if (!record) return undefined;
    if (!digestsEqual(record.request_hash, sha256Hex(request))) throw conflict();
    return this.open(record.response) as T | undefined;
  }

  /** Stores the response inside the caller's transaction; 409 if a live record already holds the key. */
  async remember(db: Kysely<Database>, projectId: string, operation: string, key: string, request: string, response: unknown): Promise<void> {
    const now = this.clock.now();
    const stored = await this.store.with(db).insert({
      project_id: projectId,
      operation,
      idempotency_key: key,
      request_hash: sha256Hex(request),
      response: this.seal(response),
      created_at: now,
      expires_at: new Date(now.getTime() + IDEMPOTENCY_WINDOW_MS),
    });
    if (!stored) throw conflict();
  }
}

function conflict(): AppError {
  return new AppError('req.idempotency_conflict', 'The Idempotency-Key was already used for a different request.', {});
}
