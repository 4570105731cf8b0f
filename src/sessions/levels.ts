import type { SessionSettings } from './settings.js';
import type { Factor } from '../db/tables/sessions.js';

/** A verified authentication factor as stored on attempts and sessions (declared in `src/db/tables/sessions.ts`). */
export type { Factor };

export const AAL1 = 'urn:nist:aal:1';
export const AAL2 = 'urn:nist:aal:2';

/**
 * What kind of evidence a method gives (NIST SP 800-63B):
 * - knowledge: something you know (password);
 * - possession: something you have that proves a device (TOTP, a recovery code from a set the
 *   user stored, a passkey without user verification);
 * - other: anything else counts towards AAL1 only: e-mail codes and magic links (`otp`,
 *   `magic_link`: an inbox proves no device, NIST 800-63B §5.1.3) and upstream SSO, alone or with
 *   a password.
 * A passkey verified with user verification (`payload.user_verified === true`) is a
 * multi-factor authenticator on its own.
 */
export type FactorKind = 'knowledge' | 'possession' | 'multi' | 'other';

/**
 * What a factor counts as, and its RFC 8176 `amr` value. The sign-in method that proves the
 * factor declares it (`AuthMethod.factors`), and the method registry hands it here when the
 * method is registered: this domain names no method.
 */
export interface FactorDescription {
  kind(factor: Factor): FactorKind;
  /** the `amr` value of ID tokens (none: the factor is left out of `amr`) */
  amr?(factor: Factor): string | undefined;
}

const described = new Map<string, FactorDescription>();

/** Declares what factors of `method` (a factor's `method`) count as; a later declaration replaces it. */
export function describeFactor(method: string, description: FactorDescription): void {
  described.set(method, description);
}

/** A factor no method describes counts towards AAL1 only. */
export function factorKind(factor: Factor): FactorKind {
  return described.get(factor.method)?.kind(factor) ?? 'other';
}

/** The factor's RFC 8176 `amr` value, when its method declares one. */
export function factorAmr(factor: Factor): string | undefined {
  return described.get(factor.method)?.amr?.(factor);
}

/**
 * Step-up merge: the newest factor per method wins; the result is sorted by method so that
 * the stored order never depends on arrival order.
 */
export function mergeFactors(existing: readonly Factor[], incoming: readonly Factor[]): Factor[] {
  const byMethod = new Map<string, Factor>();
  for (const factor of [...existing, ...incoming]) {
    const current = byMethod.get(factor.method);
    if (!current || Date.parse(factor.verified_at) >= Date.parse(current.verified_at)) byMethod.set(factor.method, factor);
  }
  return [...byMethod.values()].sort((a, b) => a.method.localeCompare(b.method));
}

/**
 * The assurance levels the factors satisfy at `now` (DESIGN §4.3), computed on every read so
 * that they shrink as freshness windows pass:
 * - urn:nist:aal:1: one factor verified within the AAL1 window;
 * - urn:nist:aal:2: within the AAL2 window, either a knowledge factor plus a possession factor,
 *   or one passkey verified with user verification. One-time codes or links alone never do.
 * A session at AAL2 also reports AAL1.
 * One pass over the factors, each timestamp parsed once: this runs on every session check.
 */
export function assuranceLevels(factors: readonly Factor[], settings: SessionSettings, now: Date): string[] {
  const nowMs = now.getTime();
  const aal1WindowMs = settings.aal1_window_seconds * 1000;
  const aal2WindowMs = settings.aal2_window_seconds * 1000;
  let aal1 = false;
  let knowledge = false;
  let possession = false;
  for (const factor of factors) {
    const age = nowMs - Date.parse(factor.verified_at);
    if (age < aal1WindowMs) aal1 = true;
    if (age >= aal2WindowMs) continue;
    const kind = factorKind(factor);
    if (kind === 'multi') return [AAL1, AAL2];
    if (kind === 'knowledge') knowledge = true;
    else if (kind === 'possession') possession = true;
  }
  if (knowledge && possession) return [AAL1, AAL2];
  return aal1 ? [AAL1] : [];
}
