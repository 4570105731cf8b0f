/**
 * Why a passkey ceremony failed. The flow maps every PasskeyError to 400
 * `flow.invalid_credentials` with a fresh challenge (DESIGN §4.10); `reason` is for logs and
 * tests, never shown to the browser beyond the documented `error.passkey_invalid`.
 */
export type PasskeyFailure =
  | 'malformed'
  | 'too_large'
  | 'wrong_type'
  | 'wrong_origin'
  | 'challenge_mismatch'
  | 'rp_id_mismatch'
  | 'user_not_present'
  | 'unsupported_algorithm'
  | 'verification_failed'
  | 'credential_exists'
  | 'unknown_credential'
  | 'user_handle_mismatch'
  | 'counter_regressed'
  | 'challenge_used';

export class PasskeyError extends Error {
  constructor(
    readonly reason: PasskeyFailure,
    message: string = reason,
  ) {
    super(message);
    this.name = 'PasskeyError';
  }
}
