/** Passkey tables (migration 0060); the matching `credentials` row carries method `passkey`. */
export interface PasskeyTables {
  passkeys: {
    credential_row_id: string;
    project_id: string;
    user_id: string;
    webauthn_id: string;
    public_key: Uint8Array;
    /** bigint: pg answers a string, PGlite a number; read it with Number(). */
    sign_count: string | number | bigint;
    transports: string[];
    aaguid: string;
    backup_eligible: boolean;
    backup_state: boolean;
    device_type: string;
  };
  webauthn_user_handles: {
    project_id: string;
    user_id: string;
    handle: string;
    created_at: Date;
  };
  webauthn_used_challenges: {
    challenge_hash: string;
    project_id: string;
    expires_at: Date;
  };
}
