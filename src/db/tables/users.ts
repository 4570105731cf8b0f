import type { Generated } from 'kysely';

export interface IdentifierRow {
  project_id: string;
  object_type: string;
  /** '' for x-unique "project"; `team:<id>` for x-unique "team" (`team:` for users without a team). */
  scope: string;
  attribute: string;
  value: string;
  user_id: string;
}

export interface UserTables {
  users: {
    id: string;
    project_id: string;
    schema_id: string;
    schema_ref: string;
    attributes: Record<string, unknown>;
    status: string;
    lifecycle_owner_team_id: string | null;
    created_at: Date;
    updated_at: Date;
    /** attribute paths the user proved to own (a mailed code or link reached them) -> ISO time */
    verified: Generated<Record<string, string>>;
  };
  user_identifiers: IdentifierRow;
  user_audit_events: {
    id: string;
    project_id: string;
    user_id: string;
    attribute: string;
    action: string;
    actor: string;
    created_at: Date;
  };
}
