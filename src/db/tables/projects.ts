export interface ProjectTables {
  projects: {
    id: string;
    name: string;
    secret_hash: string;
    preview_secret_hash: string;
    preview_origins: string[];
    settings: Record<string, unknown>;
    previous_secret_hash: string | null;
    previous_secret_valid_until: Date | null;
    created_at: Date;
    updated_at: Date;
  };
}
