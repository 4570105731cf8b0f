import { randomInt } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import { hmacBase64Url } from '../../core/crypto.js';
import type { IdGenerator } from '../../core/ids.js';
import type { KeyRing } from '../../core/keys.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { CodeStore } from './store.js';

export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_DIGITS = 6;

/**
 * One-time codes (DESIGN §4.6a): 6 digits, valid 10 minutes, at most 5 attempts, stored as an
 * HMAC, consumed in one statement, and a new code invalidates the previous one.
 */
export class CodeService {
  constructor(
    private readonly store: CodeStore,
    private readonly keys: KeyRing,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  private hash(id: string, code: string): string {
    return hmacBase64Url(this.keys.current('one-time-code'), `${id}:${code}`);
  }

  /** A new code for a user (or for nobody, so that unknown addresses follow the same path). */
  async issue(projectId: string, userId: string | undefined, purpose: string): Promise<{ id: string; code: string }> {
    const id = this.ids.next('code');
    const code = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
    const now = this.clock.now();
    await this.store.replace({
      id,
      project_id: projectId,
      user_id: userId ?? null,
      purpose,
      code_hash: this.hash(id, code),
      attempts: 0,
      created_at: now,
      expires_at: new Date(now.getTime() + CODE_TTL_MS),
      consumed_at: null,
      grant_used_at: null,
    });
    return { id, code };
  }

  /** Spends the one action a consumed code grants (a password change) inside `trx`; false when spent. */
  useGrant(trx: Kysely<Database>, projectId: string, id: string): Promise<boolean> {
    return new CodeStore(trx).useGrant(id, projectId, this.clock.now());
  }

  /**
   * Checks a guess: `consumed` exactly once for the right code within its lifetime and attempt
   * budget; `exhausted` once the code's attempts are spent (then even its right value fails);
   * `wrong` otherwise (wrong, unknown, used or expired).
   */
  async consume(projectId: string, id: string, code: string): Promise<'consumed' | 'wrong' | 'exhausted'> {
    const now = this.clock.now();
    // A malformed guess spends an attempt like a wrong one: its hash matches nothing.
    const hash = /^\d{1,12}$/.test(code) ? this.hash(id, code) : '';
    const taken = await this.store.guess(id, projectId, hash, now, CODE_MAX_ATTEMPTS);
    if (taken) return taken.consumed ? 'consumed' : 'wrong';
    return (await this.store.exhausted(id, projectId, now, CODE_MAX_ATTEMPTS)) ? 'exhausted' : 'wrong';
  }
}
