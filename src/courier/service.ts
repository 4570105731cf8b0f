import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import type { MailComposer, MailVariables } from './compose.js';
import type { CourierStore, OutboxRow } from './store.js';
import type { Language, TemplateName } from './templates.js';

export interface Mail {
  projectId?: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Which message this is (e.g. `recovery_code`), kept in the outbox. */
  template: string;
}

export interface CourierOptions {
  /** `smtp://user:pass@host:port` or `smtps://...`; unset: the embedded log-and-outbox courier. */
  smtpUrl?: string;
  from: string;
  /** deliveries tried per message (default 4) and the first backoff (default 2 s, doubling) */
  retry?: { attempts?: number; baseMs?: number };
}

/** SMTP answers and socket errors worth another try: 4xx replies, connection trouble, timeouts. */
export function isTransient(error: unknown): boolean {
  const { responseCode, code } = (error ?? {}) as { responseCode?: number; code?: string };
  if (typeof responseCode === 'number') return responseCode >= 400 && responseCode < 500;
  return ['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'ECONNREFUSED', 'ECONNRESET', 'EDNS', 'EPIPE'].includes(code ?? '');
}

/**
 * Sends mail. Embedded default: the message is kept in the `outbox` table (the log names its
 * recipient, template and id and the command that reads it, `gatehouse mail list`, never its
 * subject or body).
 * With SMTP: sent through nodemailer; the outbox keeps the envelope and status, not the body.
 * Transient failures (4xx, connection errors) are retried with exponential backoff; the final
 * status and the number of tries are recorded. Delivery never fails or delays the caller's request:
 * flows hand messages to `sendLater` / `sendTemplateLater` and answer at once.
 */
export class Courier {
  private transport?: Promise<Transporter>;
  private readonly attempts: number;
  private readonly baseMs: number;
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly store: CourierStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly logger: Logger,
    private readonly options: CourierOptions,
    private readonly composer?: MailComposer,
  ) {
    this.attempts = Math.max(1, options.retry?.attempts ?? 4);
    this.baseMs = Math.max(0, options.retry?.baseMs ?? 2000);
  }

  get mode(): 'smtp' | 'embedded' {
    return this.options.smtpUrl ? 'smtp' : 'embedded';
  }

  async send(mail: Mail): Promise<OutboxRow> {
    const row: OutboxRow = {
      id: this.ids.next('mail'),
      project_id: mail.projectId ?? null,
      recipient: mail.to,
      subject: mail.subject,
      template: mail.template,
      body: this.options.smtpUrl ? null : mail.text,
      status: this.options.smtpUrl ? 'pending' : 'logged',
      error: null,
      attempts: 0,
      created_at: this.clock.now(),
      sent_at: null,
    };
    await this.store.insert(row);
    const smtpUrl = this.options.smtpUrl;
    if (!smtpUrl) {
      // Never the body: it holds the code or link. One line that says where to read it instead.
      const command = `gatehouse mail list${row.project_id ? ` --project ${row.project_id}` : ''}`;
      // Not the subject either: a project's template may put the code there ("123456 is your code").
      this.logger.info({ mail_id: row.id, to: mail.to, template: mail.template, read_with: command }, `mail not sent (embedded courier, no SMTP_URL); read it with: ${command}`);
      return row;
    }
    let lastError = '';
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      try {
        const transport = await this.transporter(smtpUrl);
        await transport.sendMail({ from: this.options.from, to: mail.to, subject: mail.subject, text: mail.text, ...(mail.html !== undefined ? { html: mail.html } : {}) });
        await this.store.mark(row.id, 'sent', this.clock.now(), attempt);
        return { ...row, status: 'sent', sent_at: this.clock.now(), attempts: attempt };
      } catch (error) {
        lastError = (error instanceof Error ? error.message : String(error)).slice(0, 500);
        const retry = attempt < this.attempts && isTransient(error);
        this.logger.warn({ mail_id: row.id, attempt, err: lastError, retry }, 'mail delivery failed');
        if (!retry) {
          await this.store.mark(row.id, 'failed', this.clock.now(), attempt, lastError);
          return { ...row, status: 'failed', error: lastError, attempts: attempt };
        }
        // Backoff is real waiting between deliveries (not an expiry): no request waits for it.
        await new Promise((resolve) => setTimeout(resolve, this.baseMs * 2 ** (attempt - 1)));
      }
    }
    await this.store.mark(row.id, 'failed', this.clock.now(), this.attempts, lastError);
    return { ...row, status: 'failed', error: lastError, attempts: this.attempts };
  }

  /**
   * Sends without making the caller wait: a request's answer time then does not depend on
   * whether a mail went out (recovery must not reveal accounts by timing). `flush` awaits them.
   */
  sendLater(mail: Mail | (() => Promise<Mail>)): void {
    const sending = (typeof mail === 'function' ? mail() : Promise.resolve(mail))
      .then((ready) => this.send(ready))
      .catch((error: unknown) => this.logger.error({ err: error }, 'mail could not be queued'))
      .finally(() => this.pending.delete(sending));
    this.pending.add(sending);
  }

  /** Renders a template (the project's override or the built-in one) and sends it later. */
  sendTemplateLater(input: { projectId: string; to: string; template: TemplateName; language: Language; variables: MailVariables }): void {
    const composer = this.composer;
    if (!composer) throw new Error('the courier has no mail composer');
    this.sendLater(async () => ({
      projectId: input.projectId,
      to: input.to,
      template: input.template,
      ...(await composer.compose(input.projectId, input.template, input.language, input.variables)),
    }));
  }

  /** Takes one message of a recipient's budget (one statement); false when it is spent. */
  takeRecipientBudget(projectId: string, recipientKey: string, now: Date, windowMs: number, limit: number): Promise<boolean> {
    return this.store.takeRecipientBudget(projectId, recipientKey, now, windowMs, limit);
  }

  /** When the recipient's current window started (for `Retry-After`). */
  recipientWindowStart(projectId: string, recipientKey: string): Promise<Date | undefined> {
    return this.store.recipientWindowStart(projectId, recipientKey);
  }

  /** Waits for every mail handed to `sendLater` so far (tests, shutdown). */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Messages the embedded courier kept for a recipient, newest first. */
  async outboxFor(recipient: string): Promise<OutboxRow[]> {
    return this.store.forRecipient(recipient);
  }

  /** The latest messages, of every project unless one is named (`gatehouse mail list`). */
  async latest(options: { projectId?: string; recipient?: string; limit: number }): Promise<OutboxRow[]> {
    return this.store.latest(options);
  }

  /** A project's messages, newest first (`GET /projects/{id}/outbox`). */
  async outboxOf(projectId: string, options: { recipient?: string; limit: number }): Promise<OutboxRow[]> {
    return this.store.forProject(projectId, options);
  }

  /**
   * nodemailer (about 2 MB of heap) is imported with the first message sent over SMTP: an instance
   * on the embedded courier, or one that has not sent yet, does not hold it.
   */
  private transporter(smtpUrl: string): Promise<Transporter> {
    this.transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl, { from: this.options.from }));
    return this.transport;
  }

  async close(): Promise<void> {
    await this.flush();
    await this.transport?.then((transport) => transport.close(), () => undefined);
  }
}
