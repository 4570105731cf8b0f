import { createHmac } from 'node:crypto';
import { decodeBase64 } from '../core/base64.js';
import { pooledRandomBytes } from '../core/random.js';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com, spec §"Signature scheme"):
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, keyed
 * with the secret's bytes (the base64 after `whsec_`). Several secrets give several signatures,
 * space-separated, so that a receiver holding either the old or the new secret accepts a delivery
 * during a rotation's overlap.
 */

export const SECRET_PREFIX = 'whsec_';
/** The spec allows 24 to 64 bytes; ours are 32 (256 bits). */
const SECRET_BYTES = 32;
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;

/** A fresh signing secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${pooledRandomBytes(SECRET_BYTES).toString('base64')}`;
}

/**
 * The key bytes of a `whsec_…` secret (the prefix is optional, as in the reference libraries).
 * Throws for anything that is not canonical base64 of 24 to 64 bytes.
 */
export function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = decodeBase64(encoded);
  if (encoded.length === 0 || key === undefined) throw new Error('webhook secret is not base64');
  if (key.length < MIN_SECRET_BYTES || key.length > MAX_SECRET_BYTES) {
    throw new Error(`webhook secret must hold ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} bytes`);
  }
  return key;
}

export interface SignInput {
  /** one secret, or several during a rotation (each yields one signature, in this order) */
  secrets: string | readonly string[];
  /** the `webhook-id` (the delivery's id, the same on every retry) */
  id: string;
  /** the `webhook-timestamp`: Unix seconds, or a Date (floored to seconds) */
  timestamp: number | Date;
  /** the exact bytes sent as the request body */
  body: string | Uint8Array;
}

/** Unix seconds of a timestamp input; refuses fractions and negatives. */
export function unixSeconds(timestamp: number | Date): number {
  const seconds = timestamp instanceof Date ? Math.floor(timestamp.getTime() / 1000) : timestamp;
  if (!Number.isSafeInteger(seconds) || seconds < 0) throw new Error('webhook timestamp must be whole Unix seconds');
  return seconds;
}

/** The `webhook-signature` header value: `v1,<sig>` per secret, space-separated. */
export function sign(input: SignInput): string {
  const secrets = typeof input.secrets === 'string' ? [input.secrets] : input.secrets;
  if (secrets.length === 0) throw new Error('sign() needs at least one secret');
  if (input.id.length === 0 || /[\s.]/.test(input.id)) throw new Error('webhook id must be non-empty, without dots or spaces');
  const prefix = `${input.id}.${unixSeconds(input.timestamp)}.`;
  const body = typeof input.body === 'string' ? Buffer.from(input.body, 'utf8') : input.body;
  return secrets
    .map((secret) => `v1,${createHmac('sha256', secretKey(secret)).update(prefix, 'utf8').update(body).digest('base64')}`)
    .join(' ');
}

export type WebhookHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/** The three Standard Webhooks headers of one delivery attempt. */
export function signedHeaders(input: SignInput): WebhookHeaders {
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(unixSeconds(input.timestamp)),
    'webhook-signature': sign(input),
  };
}
