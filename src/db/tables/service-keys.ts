export interface ServiceKeyTables {
  service_keys: {
    id: string;
    project_id: string;
    name: string;
    client_id: string;
    secret_hash: string;
    scopes: string[];
    created_at: Date;
    last_used_at: Date | null;
  };
}
