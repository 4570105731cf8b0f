import { randomBytes, randomInt } from 'node:crypto';
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
/** A magic-link token: 128 random bits, base64url (DESIGN §4.6a). */
export const LINK_TOKEN = /^[A-Za-z0-9_-]{22}$/;

/** What a guess may be: the mailed code, the link token mailed with it, or both. */
export interface Accepts {
  code: boolean;
  link: boolean;
}

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

  private linkHash(id: string, token: string): string {
    return hmacBase64Url(this.keys.current('one-time-code'), `${id}:link:${token}`);
  }

  /**
   * A new code for a user (or for nobody, so that unknown addresses follow the same path); with
   * `link`, a magic-link token in the same row (one use and one attempt budget for both); in `trx`
   * when given (a change that is logged with it).
   */
  async issue(projectId: string, userId: string | undefined, purpose: string, options: { link?: boolean; trx?: Kysely<Database> } = {}): Promise<{ id: string; code: string; link?: string }> {
    const id = this.ids.next('code');
    const code = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
    const link = options.link ? randomBytes(16).toString('base64url') : undefined;
    const now = this.clock.now();
    await (options.trx ? new CodeStore(options.trx) : this.store).replace({
      id,
      project_id: projectId,
      user_id: userId ?? null,
      purpose,
      code_hash: this.hash(id, code),
      link_hash: link !== undefined ? this.linkHash(id, link) : null,
      attempts: 0,
      created_at: now,
      expires_at: new Date(now.getTime() + CODE_TTL_MS),
      consumed_at: null,
      grant_used_at: null,
    });
    return link !== undefined ? { id, code, link } : { id, code };
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
  async consume(projectId: string, id: string, code: string, accepts: Accepts = { code: true, link: false }): Promise<'consumed' | 'wrong' | 'exhausted'> {
    const now = this.clock.now();
    // A malformed guess, or one of a kind the step does not accept, spends an attempt like a wrong
    // one: its hash matches nothing.
    const hash = accepts.code && /^\d{1,12}$/.test(code) ? this.hash(id, code) : '';
    const linkHash = accepts.link && LINK_TOKEN.test(code) ? this.linkHash(id, code) : '';
    const taken = await this.store.guess(id, projectId, hash, now, CODE_MAX_ATTEMPTS, linkHash);
    if (taken) return taken.consumed ? 'consumed' : 'wrong';
    return (await this.store.exhausted(id, projectId, now, CODE_MAX_ATTEMPTS)) ? 'exhausted' : 'wrong';
  }
}
