/** The instance singleton, the operators' roles and the console's set-up links (src/db/migrations/0100_operators.sql, 0101_console.sql). */
export interface OperatorTables {
  instance: {
    id: boolean;
    system_project_id: string;
    created_at: Date;
    console_client_id: string | null;
    /** `gatehouse login`'s device-grant client (0103_device_grant.sql) */
    cli_client_id: string | null;
  };
  operator_roles: {
    id: string;
    user_id: string;
    project_id: string | null;
    role: 'instance_admin' | 'project_admin';
    granted_at: Date;
  };
  console_setup_tokens: {
    token_hash: string;
    created_at: Date;
    expires_at: Date;
    used_at: Date | null;
    used_by: string | null;
  };
}
