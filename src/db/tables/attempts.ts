import type { Factor } from './sessions.js';

export type AttemptState = 'pending' | 'completed' | 'handed_off';

export interface AttemptTables {
  auth_attempts: {
    id: string;
    project_id: string;
    session_id: string | null;
    user_id: string | null;
    state: AttemptState;
    factors: Factor[];
    created_at: Date;
    updated_at: Date;
    expires_at: Date;
    completed_at: Date | null;
    handed_off_at: Date | null;
  };
  handoff_tokens: {
    token_hash: string;
    project_id: string;
    attempt_id: string;
    created_at: Date;
    expires_at: Date;
    consumed_at: Date | null;
  };
}
