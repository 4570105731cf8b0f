/** Every table of the flow engine (its courier's are in courier.ts), listed once in `src/db/schema.ts`. */
export type FlowTables = FlowDefinitionTables & GateTables & RiskTables & FlowStartTables & CodeTables;

export interface FlowDefinitionTables {
  flow_definitions: {
    id: string;
    project_id: string;
    name: string;
    status: string;
    schema_uri: string;
    schema_id: string;
    purposes: string[];
    app_ids: string[];
    definition: string;
    created_at: Date;
    updated_at: Date;
  };
  flow_runs: {
    id: string;
    project_id: string;
    definition_id: string;
    session_id: string;
    created_at: Date;
    expires_at: Date;
    ended_at: Date | null;
    /** set by the create_user of this run: a flow creates at most one user */
    user_created_at: Date | null;
    /** when this run last sent a code or link: the gap between two sends is taken here */
    code_sent_at: Date | null;
    /** events (`POST /flow/{id}/event`) this run stored: each takes one, up to a cap */
    events: number;
  };
}

export interface GateTables {
  captcha_spent: { signature: string; project_id: string; expires_at: Date };
}

export interface RiskTables {
  login_failures: { project_id: string; account_key: string; failures: number; locked_until: Date | null; updated_at: Date };
  ip_failures: { project_id: string; ip: string; window_start: Date; count: number };
  flow_events: {
    id: string;
    project_id: string;
    flow_id: string;
    session_id: string;
    type: string;
    /** null when the event came without one: nothing is stored that was not sent. */
    payload: Record<string, unknown> | null;
    ip: string | null;
    created_at: Date;
  };
  known_fingerprints: { project_id: string; user_id: string; fingerprint_hash: string; first_seen: Date; last_seen: Date };
}

export interface FlowStartTables {
  flow_start_budget: { project_id: string; ip: string; window_start: Date; count: number };
}

export interface CodeTables {
  one_time_codes: {
    id: string;
    project_id: string;
    user_id: string | null;
    purpose: string;
    code_hash: string;
    /** HMAC of the magic-link token issued with the code (same row: one use, one budget), if any */
    link_hash: string | null;
    attempts: number;
    created_at: Date;
    expires_at: Date;
    consumed_at: Date | null;
    /** set when the proof a consumed code gave (a password change) was used */
    grant_used_at: Date | null;
  };
}
