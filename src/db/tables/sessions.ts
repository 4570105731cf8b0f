/** A verified authentication factor as stored on attempts and sessions (interface: Factor). */
export interface Factor {
  method: string;
  verified_at: string;
  payload: { user_id: string } & Record<string, unknown>;
}

export interface UserAgent {
  fingerprint?: string;
  ip?: string;
}

export interface SessionTables {
  sessions: {
    id: string;
    project_id: string;
    state: 'building' | 'active';
    user_id: string | null;
    lifecycle_owner_team_id: string | null;
    factors: Factor[];
    metadata: Record<string, unknown>;
    user_agent: UserAgent;
    token_hash: string;
    created_at: Date;
    updated_at: Date;
    expires_at: Date;
  };
  idempotency_records: {
    project_id: string;
    operation: string;
    idempotency_key: string;
    request_hash: string;
    response: string;
    created_at: Date;
    expires_at: Date;
  };
}
