/** Recovery links sent by operators (src/db/migrations/0102_recovery_links.sql). */
export interface RecoveryLinkTables {
  recovery_links: {
    token_hash: string;
    project_id: string;
    user_id: string;
    created_at: Date;
    expires_at: Date;
    used_at: Date | null;
  };
}
