/** The instance singleton and the operators' roles (src/db/migrations/0100_operators.sql). */
export interface OperatorTables {
  instance: {
    id: boolean;
    system_project_id: string;
    created_at: Date;
  };
  operator_roles: {
    id: string;
    user_id: string;
    project_id: string | null;
    role: 'instance_admin' | 'project_admin';
    granted_at: Date;
  };
}
