import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import { deliver as post } from '../core/outbound.js';
import type { OutboundPolicy } from '../core/outbound-target.js';
import { runPeriodically } from '../core/periodic.js';
import type { Database } from '../db/schema.js';
import type { LogoutDeliveryTables } from '../db/tables/oauth.js';
import type { SessionRow } from '../sessions/store.js';
import type { SigningKeys } from './signing-keys.js';

/** Tries per delivery, and the wait before each retry (the last try's failure is final). */
export const DELIVERY_ATTEMPTS = 6;
const BACKOFF_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000];
/** A delivery being sent is leased this long, so a process that dies mid-send leaves it to another. */
const LEASE_MS = 60_000;
const TIMEOUT_MS = 5_000;
const EVENT = 'http://schemas.openid.net/event/backchannel-logout';

type Delivery = LogoutDeliveryTables['oauth_logout_deliveries'];

/**
 * OpenID Connect Back-Channel Logout 1.0. When a session ends (logout, operator revocation, user
 * deletion, the sweeper), `enqueue` writes one delivery per client that holds tokens of it and
 * registered a `backchannel_logout_uri`, inside the transaction that ends the session: no ended
 * session is lost, and no delivery exists for a session that did not end. `deliver` sends due
 * deliveries (a logout token, `typ: logout+jwt`, with `sid` and `sub`, posted as a form) and
 * retries failures with backoff; the queue is in the database, so a restart only delays it.
 *
 * The URI is a tenant's: it is posted to through the SSRF-safe outbound client
 * (src/core/outbound.ts), so a private, loopback or link-local (cloud metadata) address, or a name
 * that resolves to one, is refused before any connection unless `outbound` allows it, and the
 * refusal is the delivery's error (`private_address: …`), retried like any other.
 */
export class BackchannelLogout {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly signingKeys: SigningKeys,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly issuer: string,
    private readonly logger?: Logger,
    private readonly outbound: OutboundPolicy = {},
  ) {}

  /** In the transaction that deletes `session`: one delivery per client with tokens of it and a back-channel URI. */
  async enqueue(trx: Kysely<Database>, session: SessionRow): Promise<void> {
    const clients = await trx
      .selectFrom('oauth_tokens')
      .innerJoin('oauth_clients', 'oauth_clients.id', 'oauth_tokens.client_id')
      .select(['oauth_clients.id as client_id', 'oauth_clients.backchannel_logout_uri as uri'])
      .distinct()
      .where('oauth_tokens.session_id', '=', session.id)
      .where('oauth_clients.backchannel_logout_uri', 'is not', null)
      .execute();
    if (clients.length === 0) return;
    const now = this.clock.now();
    await trx
      .insertInto('oauth_logout_deliveries')
      .values(
        clients.map((client) => ({
          id: this.ids.next('bcl'),
          project_id: session.project_id,
          client_id: client.client_id,
          uri: client.uri!,
          session_id: session.id,
          user_id: session.user_id,
          status: 'pending' as const,
          attempts: 0,
          next_at: now,
          last_error: null,
          created_at: now,
          sent_at: null,
        })),
      )
      .execute();
  }

  /** Sends the deliveries that are due (each taken under a lease, so two processes never send one twice at once). */
  async deliver(limit = 20): Promise<{ sent: number; failed: number; retried: number }> {
    const now = this.clock.now();
    const taken = await sql<Delivery>`update oauth_logout_deliveries set next_at = ${new Date(now.getTime() + LEASE_MS)}, attempts = attempts + 1
      where id in (select id from oauth_logout_deliveries where status = 'pending' and next_at <= ${now} order by next_at limit ${limit} for update skip locked)
      returning *`.execute(this.db);
    const outcome = { sent: 0, failed: 0, retried: 0 };
    for (const delivery of taken.rows) {
      const error = await this.send(delivery);
      const at = this.clock.now();
      if (error === undefined) {
        await this.db.updateTable('oauth_logout_deliveries').set({ status: 'sent', sent_at: at, last_error: null }).where('id', '=', delivery.id).execute();
        outcome.sent++;
      } else if (delivery.attempts >= DELIVERY_ATTEMPTS) {
        await this.db.updateTable('oauth_logout_deliveries').set({ status: 'failed', last_error: error }).where('id', '=', delivery.id).execute();
        this.logger?.warn({ delivery_id: delivery.id, client_id: delivery.client_id, err: error }, 'back-channel logout delivery failed for good');
        outcome.failed++;
      } else {
        const wait = BACKOFF_MS[Math.min(delivery.attempts - 1, BACKOFF_MS.length - 1)];
        await this.db.updateTable('oauth_logout_deliveries').set({ next_at: new Date(at.getTime() + wait), last_error: error }).where('id', '=', delivery.id).execute();
        outcome.retried++;
      }
    }
    return outcome;
  }

  /** The logout token posted to one client; an error text when it was not accepted. */
  private async send(delivery: Delivery): Promise<string | undefined> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const token = await this.signingKeys.sign(
      {
        iss: this.issuer,
        aud: delivery.client_id,
        iat: now,
        exp: now + 120,
        jti: randomUUID(),
        sid: delivery.session_id,
        ...(delivery.user_id ? { sub: delivery.user_id } : {}),
        events: { [EVENT]: {} },
      },
      'logout+jwt',
    );
    const result = await post({
      url: delivery.uri,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'cache-control': 'no-store', 'user-agent': 'Gatehouse-Logout/1' },
      body: new URLSearchParams({ logout_token: token }).toString(),
      ...this.outbound,
      // Registration allows https, and http only on a loopback host; the policy decides which hosts are reached.
      requireHttps: false,
      timeoutMs: TIMEOUT_MS,
      maxResponseBytes: 4096,
    });
    if (result.ok) return undefined;
    if (result.reason === 'http_status' || result.reason === 'redirect') return `HTTP ${result.status}`;
    return `${result.reason ?? 'network'}: ${result.error ?? 'failed'}`.slice(0, 300);
  }

  /** Delivers every `intervalMs` in the background; returns the stop function. */
  start(intervalMs: number): () => Promise<void> {
    return runPeriodically(() => this.deliver(), intervalMs, this.logger, 'back-channel logout deliveries');
  }
}
