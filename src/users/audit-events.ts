import type { EventDataMap } from '../events/types.js';

/** Second factors: their changes are `mfa.enabled` / `mfa.disabled`. */
const SECOND_FACTORS = new Set(['totp', 'recovery_code']);

type CredentialEvent =
  | { type: 'credential.added'; data: EventDataMap['credential.added'] }
  | { type: 'credential.removed'; data: EventDataMap['credential.removed'] }
  | { type: 'password.changed'; data: EventDataMap['password.changed'] }
  | { type: 'mfa.enabled'; data: EventDataMap['mfa.enabled'] }
  | { type: 'mfa.disabled'; data: EventDataMap['mfa.disabled'] }
  | { type: 'sso.unlinked'; data: EventDataMap['sso.unlinked'] };

/**
 * The event of a credential change as the audit trail records it (`UserService.audit`): the
 * method (`password`, `passkey`, `totp`, `recovery_code`, `sso`) and what happened to it. A first
 * password is a credential added, a later one `password.changed`; a second factor added or
 * replaced is `mfa.enabled`; a removal is `mfa.disabled`, `sso.unlinked` or `credential.removed`.
 */
export function credentialEvent(method: string, action: string, credentialId: string | null): CredentialEvent | undefined {
  if (action === 'removed') {
    if (credentialId === null) return undefined;
    if (SECOND_FACTORS.has(method)) return { type: 'mfa.disabled', data: { method, credential_id: credentialId } };
    if (method === 'sso') return { type: 'sso.unlinked', data: { credential_id: credentialId } };
    return { type: 'credential.removed', data: { method, credential_id: credentialId } };
  }
  if (method === 'password') return action === 'set' ? { type: 'credential.added', data: { method, credential_id: credentialId } } : { type: 'password.changed', data: {} };
  if (SECOND_FACTORS.has(method)) return { type: 'mfa.enabled', data: { method, replaced: action === 'replaced' } };
  return { type: 'credential.added', data: { method, credential_id: credentialId } };
}

/** The top-level attributes whose values differ between two versions of a user (added and removed ones too), sorted. */
export function changedAttributes(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key])).sort();
}
