import { Secret, TOTP } from 'otpauth';
import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import type { KeyRing } from '../core/keys.js';
import { seal, unseal } from '../core/sealed.js';
import type { Database } from '../db/schema.js';
import { self, type Actor } from '../events/types.js';
import type { UserService } from '../users/service.js';
import type { MfaStore } from './store.js';

/** RFC 6238 as authenticator apps implement it (DESIGN §4.12): SHA-1, 6 digits, 30 s, ±1 step. */
export const TOTP_PARAMS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
const DRIFT_STEPS = 1;
const KEY_PURPOSE = 'totp-secrets';

/** What the enrollment step shows: the seed, the URI authenticator apps import, and its QR code. */
export interface TotpEnrollmentView {
  secret: string;
  otpauth_uri: string;
  qr_svg: string;
}

/** A new 160-bit seed (base32), kept in the flow until a first code confirms it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The time step a code matches at `now` (within ±1 step), or undefined. */
export function matchingTimeStep(secret: string, code: string, now: Date): number | undefined {
  const totp = new TOTP({ ...TOTP_PARAMS, secret: Secret.fromBase32(secret) });
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: DRIFT_STEPS });
  return delta === null ? undefined : totp.counter({ timestamp: now.getTime() }) + delta;
}

export async function enrollmentView(secret: string, issuer: string, label: string): Promise<TotpEnrollmentView> {
  const uri = new TOTP({ ...TOTP_PARAMS, issuer, label, secret: Secret.fromBase32(secret) }).toString();
  // qrcode (about 1 MB of heap) is imported at the first enrolment, not held by every instance.
  const { default: QRCode } = await import('qrcode');
  const qr = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
  return { secret, otpauth_uri: uri, qr_svg: qr };
}

/**
 * TOTP credentials: one per user, the seed sealed at rest under a key derived from
 * GATEHOUSE_SECRET; every accepted code spends its time step for the user in one statement.
 */
export class TotpService {
  constructor(
    private readonly store: MfaStore,
    private readonly keys: KeyRing,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly users: UserService,
  ) {}

  async enrolled(projectId: string, userId: string): Promise<boolean> {
    return (await this.store.credential(projectId, userId, 'totp')) !== undefined;
  }

  /**
   * Checks a code against the user's TOTP and spends its time step: true exactly once per code
   * and step. False for no TOTP, a wrong code, a code outside ±1 step, or a replay.
   */
  async verify(projectId: string, userId: string, code: string): Promise<boolean> {
    const row = await this.store.credential(projectId, userId, 'totp');
    const secret = row ? unseal(this.keys, KEY_PURPOSE, row.secret) : undefined;
    if (!row || secret === undefined) return false;
    const now = this.clock.now();
    const step = matchingTimeStep(secret, code, now);
    if (step === undefined) return false;
    if (!(await this.store.spendTimeStep(projectId, userId, step, now))) return false;
    await Promise.all([this.store.touch(row.id, now), this.store.forgetTimeStepsBefore(userId, step - 2 * DRIFT_STEPS - 1)]);
    return true;
  }

  /**
   * Enables TOTP with a seed whose first code the user just typed (it spends that step too, so the
   * confirming code cannot sign in again), replacing an earlier TOTP; audited. False when the code
   * does not match.
   */
  async enable(projectId: string, userId: string, secret: string, code: string, actor: Actor = self(userId)): Promise<boolean> {
    const now = this.clock.now();
    const step = matchingTimeStep(secret, code, now);
    if (step === undefined) return false;
    return this.store.transaction(async (trx: Kysely<Database>) => {
      const store = this.store.with(trx);
      const existed = (await store.credential(projectId, userId, 'totp')) !== undefined;
      await store.replaceCredential({ id: this.ids.next('cred'), projectId, userId, method: 'totp', secret: seal(this.keys, KEY_PURPOSE, secret), at: now });
      if (!(await store.spendTimeStep(projectId, userId, step, now))) throw new ConfirmationReplayed();
      await this.users.audit(trx, { id: userId, projectId }, { attribute: 'totp', action: existed ? 'replaced' : 'added', actor });
      return true;
    }).catch((error: unknown) => {
      if (error instanceof ConfirmationReplayed) return false;
      throw error;
    });
  }
}

/** The confirming code's step was spent concurrently: nothing is written. */
class ConfirmationReplayed extends Error {}
