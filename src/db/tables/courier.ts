export interface CourierTables {
  outbox: {
    id: string;
    project_id: string | null;
    recipient: string;
    subject: string;
    template: string;
    body: string | null;
    status: 'logged' | 'pending' | 'sent' | 'failed';
    error: string | null;
    /** deliveries tried (SMTP); transient failures are retried with backoff */
    attempts: number;
    created_at: Date;
    sent_at: Date | null;
  };
  mail_recipient_budget: {
    project_id: string;
    recipient_key: string;
    window_start: Date;
    count: number;
  };
}

export interface MailTemplateTables {
  mail_templates: {
    project_id: string;
    template: string;
    language: string;
    subject: string;
    text_body: string;
    html_body: string | null;
    updated_at: Date;
  };
}
