import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { hmacBase64Url } from '../core/crypto.js';
import type { IdGenerator } from '../core/ids.js';
import type { KeyRing } from '../core/keys.js';
import { self, type Actor } from '../events/types.js';
import type { UserService } from '../users/service.js';
import type { MfaStore } from './store.js';

export const RECOVERY_CODE_COUNT = 10;
/** At or below this many unused codes the sign-in step warns (`warning.recovery_codes_low`). */
export const RECOVERY_CODES_LOW = 2;
const KEY_PURPOSE = 'recovery-codes';
// RFC 4648 base32: what users read back from paper; 10 characters = 50 bits per code.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** The canonical form of a typed code: case folded, dashes and spaces dropped (`abcde-fghij` = `ABCDEFGHIJ`). */
export function canonicalRecoveryCode(typed: string): string {
  return typed.replace(/[\s-]/g, '').toUpperCase();
}

function newCode(): string {
  const bytes = randomBytes(10);
  let code = '';
  for (const byte of bytes) code += ALPHABET[byte & 31];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/**
 * Recovery codes (DESIGN §4.12): a set of 10 single-use codes per user, shown once, stored as
 * HMACs; generating a new set replaces the old one in one transaction.
 */
export class RecoveryCodeService {
  constructor(
    private readonly store: MfaStore,
    private readonly keys: KeyRing,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly users: UserService,
  ) {}

  private hash(userId: string, canonical: string): string {
    return hmacBase64Url(this.keys.current(KEY_PURPOSE), `${userId}\0${canonical}`);
  }

  /** A new set for the user, replacing any earlier one (its codes stop working); audited. The codes, to show once. */
  async generate(projectId: string, userId: string, actor: Actor = self(userId)): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
    const now = this.clock.now();
    const id = this.ids.next('cred');
    await this.store.transaction(async (trx) => {
      const store = this.store.with(trx);
      const existed = (await store.credential(projectId, userId, 'recovery_code')) !== undefined;
      await store.replaceCredential({ id, projectId, userId, method: 'recovery_code', secret: '', at: now });
      await store.insertCodes(codes.map((code) => ({ credential_row_id: id, project_id: projectId, user_id: userId, code_hash: this.hash(userId, canonicalRecoveryCode(code)), used_at: null })));
      await this.users.audit(trx, { id: userId, projectId }, { attribute: 'recovery_code', action: existed ? 'replaced' : 'added', actor });
    });
    return codes;
  }

  /** Uses a code of the user's current set (once, whoever asks concurrently): the codes left, or undefined. */
  async use(projectId: string, userId: string, typed: string): Promise<number | undefined> {
    const canonical = canonicalRecoveryCode(typed);
    if (!/^[A-Z2-7]{10}$/.test(canonical)) return undefined;
    const now = this.clock.now();
    const used = await this.store.useCode(projectId, userId, this.hash(userId, canonical), now);
    if (!used) return undefined;
    await this.store.touch(used.credentialId, now);
    return used.remaining;
  }

  remaining(projectId: string, userId: string): Promise<number> {
    return this.store.remainingCodes(projectId, userId);
  }
}
