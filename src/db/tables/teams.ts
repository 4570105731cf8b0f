export interface TeamTables {
  teams: {
    id: string;
    project_id: string;
    name: string;
    name_key: string;
    status: string;
    created_at: Date;
    updated_at: Date;
  };
}
