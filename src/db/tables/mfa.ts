/** Tables of TOTP and recovery codes (migration 0075); their credentials rows live in `credentials`. */
export interface MfaTables {
  totp_used_steps: {
    project_id: string;
    user_id: string;
    time_step: string | number | bigint;
    used_at: Date;
  };
  recovery_codes: {
    credential_row_id: string;
    project_id: string;
    user_id: string;
    code_hash: string;
    used_at: Date | null;
  };
}
