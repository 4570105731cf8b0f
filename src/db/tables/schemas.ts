export interface SchemaTables {
  user_schemas: {
    id: string;
    project_id: string;
    team_id: string | null;
    uri: string;
    object_type: string;
    document: string;
    is_default: boolean;
    created_at: Date;
  };
}
