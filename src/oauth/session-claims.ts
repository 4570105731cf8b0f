import { createHash } from 'node:crypto';
import { factorAmr } from '../sessions/levels.js';
import type { Session } from '../sessions/view.js';

/**
 * What an ID token says about how the user signed in, read from the session as it is now, so that
 * a token issued for a live session, a later authorization that reuses it, and a refresh all say
 * the same (OIDC Core §2): `auth_time` (the newest factor), `acr` (the highest assurance level the
 * session holds now), `amr` (RFC 8176, plus `mfa` when two kinds of factor count).
 */
export function sessionClaims(session: Session): { auth_time?: number; acr?: string; amr?: string[] } {
  const times = session.factors.map((factor) => Date.parse(factor.verified_at)).filter((t) => !Number.isNaN(t));
  const amr = new Set<string>();
  for (const factor of session.factors) {
    // RFC 8176 values, as each factor's method declares them; factors without one are left out.
    const value = factorAmr(factor);
    if (value) amr.add(value);
  }
  if (amr.size >= 2) amr.add('mfa');
  const levels = session.assurance_levels;
  const acr = levels.includes('urn:nist:aal:2') ? 'urn:nist:aal:2' : levels.includes('urn:nist:aal:1') ? 'urn:nist:aal:1' : undefined;
  return {
    ...(times.length > 0 ? { auth_time: Math.floor(Math.max(...times) / 1000) } : {}),
    ...(acr ? { acr } : {}),
    ...(amr.size > 0 ? { amr: [...amr].sort() } : {}),
  };
}

/** OIDC Core §3.1.3.6: base64url of the left half of the SHA-256 of the access token (RS256). */
export function atHash(accessToken: string): string {
  const digest = createHash('sha256').update(accessToken, 'ascii').digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}
