/** The event log (src/db/migrations/0110_events.sql); written only through `EventLog.record` (src/events). */
export interface EventTables {
  events: {
    id: string;
    project_id: string;
    type: string;
    occurred_at: Date;
    actor_kind: string;
    actor_id: string | null;
    subject_kind: string;
    subject_id: string | null;
    data: Record<string, unknown>;
  };
}
