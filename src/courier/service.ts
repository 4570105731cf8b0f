import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import type { CourierStore, OutboxRow } from './store.js';

export interface Mail {
  projectId?: string;
  to: string;
  subject: string;
  text: string;
  /** Which message this is (e.g. `recovery_code`), kept in the outbox. */
  template: string;
}

export interface CourierOptions {
  /** `smtp://user:pass@host:port` or `smtps://...`; unset: the embedded log-and-outbox courier. */
  smtpUrl?: string;
  from: string;
}

/**
 * Sends mail. Embedded default: the message is written to the log and to the `outbox` table.
 * With SMTP: sent through nodemailer; the outbox keeps the envelope and status, not the body.
 * A failed delivery is recorded and logged but never fails the caller's request (the answer of a
 * recovery request must not depend on mail delivery).
 */
export class Courier {
  private readonly transport?: Transporter;

  constructor(
    private readonly store: CourierStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly logger: Logger,
    private readonly options: CourierOptions,
  ) {
    if (options.smtpUrl) {
      this.transport = nodemailer.createTransport(options.smtpUrl, { from: options.from });
    }
  }

  get mode(): 'smtp' | 'embedded' {
    return this.transport ? 'smtp' : 'embedded';
  }

  async send(mail: Mail): Promise<OutboxRow> {
    const row: OutboxRow = {
      id: this.ids.next('mail'),
      project_id: mail.projectId ?? null,
      recipient: mail.to,
      subject: mail.subject,
      template: mail.template,
      body: this.transport ? null : mail.text,
      status: this.transport ? 'failed' : 'logged',
      error: null,
      created_at: this.clock.now(),
      sent_at: null,
    };
    await this.store.insert(row);
    if (!this.transport) {
      this.logger.info({ mail_id: row.id, to: mail.to, subject: mail.subject, body: mail.text }, 'mail (embedded courier, not sent)');
      return row;
    }
    try {
      await this.transport.sendMail({ from: this.options.from, to: mail.to, subject: mail.subject, text: mail.text });
      await this.store.mark(row.id, 'sent', this.clock.now());
      return { ...row, status: 'sent', sent_at: this.clock.now() };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.store.mark(row.id, 'failed', this.clock.now(), message.slice(0, 500));
      this.logger.error({ mail_id: row.id, err: message }, 'mail delivery failed');
      return { ...row, status: 'failed', error: message };
    }
  }

  private readonly pending = new Set<Promise<unknown>>();

  /**
   * Sends without making the caller wait: a request's answer time then does not depend on
   * whether a mail went out (recovery must not reveal accounts by timing). `flush` awaits them.
   */
  sendLater(mail: Mail): void {
    const sending = this.send(mail)
      .catch((error: unknown) => this.logger.error({ err: error, to: mail.to }, 'mail could not be queued'))
      .finally(() => this.pending.delete(sending));
    this.pending.add(sending);
  }

  /** Waits for every mail handed to `sendLater` so far (tests, shutdown). */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Messages the embedded courier kept for a recipient, newest first. */
  async outboxFor(recipient: string): Promise<OutboxRow[]> {
    return this.store.forRecipient(recipient);
  }

  async close(): Promise<void> {
    await this.flush();
    this.transport?.close();
  }
}
