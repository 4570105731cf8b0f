/** Webhook endpoints and their deliveries (src/db/migrations/0111_webhooks.sql). */
export interface WebhookTables {
  webhooks: {
    id: string;
    project_id: string;
    url: string;
    /** JSON array of event types, or ["*"] */
    events: string[];
    description: string | null;
    secret_sealed: string;
    previous_secret_sealed: string | null;
    previous_until: Date | null;
    disabled_at: Date | null;
    failing_since: Date | null;
    created_at: Date;
    updated_at: Date;
  };
  webhook_deliveries: {
    id: string;
    webhook_id: string;
    project_id: string;
    event_id: string;
    occurred_at: Date;
    status: 'pending' | 'delivered' | 'failed';
    attempts: number;
    first_attempt_at: Date | null;
    next_at: Date;
    leased_until: Date | null;
    last_status_code: number | null;
    last_error: string | null;
    delivered_at: Date | null;
    created_at: Date;
  };
}
