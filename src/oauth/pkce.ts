import { createHash } from 'node:crypto';
import { constantTimeEqual } from '../core/crypto.js';

/** RFC 7636 §4.1: 43-128 unreserved characters (the same shape for the S256 challenge). */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

export function isPkceValue(value: string | undefined): value is string {
  return value !== undefined && PKCE_VALUE.test(value);
}

/** S256 only: BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge. */
export function verifiesChallenge(verifier: string | undefined, challenge: string): boolean {
  if (!isPkceValue(verifier)) return false;
  return constantTimeEqual(createHash('sha256').update(verifier, 'ascii').digest('base64url'), challenge);
}
