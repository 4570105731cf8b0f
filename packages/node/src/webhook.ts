import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verifies a Gatehouse webhook delivery (Standard Webhooks, https://www.standardwebhooks.com):
 * `webhook-signature` holds one or more `v1,<base64 HMAC-SHA256>` signatures, space-separated, of
 * `"{webhook-id}.{webhook-timestamp}.{raw body}"` keyed with the bytes of the `whsec_…` secret.
 * Node built-ins only.
 */

export type WebhookVerificationReason =
  | 'invalid_secret'
  | 'missing_headers'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'no_matching_signature'
  | 'invalid_body';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(message);
  }
}

/** What Gatehouse sends: the event's type, when the delivery was made, and the event. */
export interface WebhookPayload<T = unknown> {
  type: string;
  timestamp: string;
  data: T;
}

export type WebhookHeaderInput =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookOptions {
  /** how far `webhook-timestamp` may be from now, either way (default 300 s) */
  toleranceSeconds?: number;
  /** the current time in milliseconds (default `Date.now()`) */
  now?: () => number;
}

const PREFIX = 'whsec_';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Checks the delivery's signature and timestamp and returns its parsed body; throws a
 * `WebhookVerificationError` (with a `reason`) otherwise. Pass the body exactly as received
 * (a string or the raw bytes), not a re-serialised object: one changed byte fails the check.
 * De-duplicate by the `webhook-id` header: a delivery can arrive more than once.
 */
export function verifyWebhook<T = unknown>(
  secret: string,
  headers: WebhookHeaderInput,
  rawBody: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): WebhookPayload<T> {
  const key = keyOf(secret);
  const id = single(headers, 'webhook-id');
  const timestampHeader = single(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestampHeader || !signatures) {
    throw new WebhookVerificationError('missing_headers', 'webhook-id, webhook-timestamp and webhook-signature are required');
  }
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new WebhookVerificationError('invalid_body', 'pass the raw request body (string or bytes), not a parsed object');
  }

  if (!/^\d{1,15}$/.test(timestampHeader)) throw new WebhookVerificationError('invalid_timestamp', 'webhook-timestamp is not Unix seconds');
  const timestamp = Number(timestampHeader);
  const tolerance = options.toleranceSeconds ?? 300;
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  if (now - timestamp > tolerance) throw new WebhookVerificationError('timestamp_too_old', 'webhook-timestamp is too old');
  if (timestamp - now > tolerance) throw new WebhookVerificationError('timestamp_too_new', 'webhook-timestamp is in the future');

  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  const expected = Buffer.from(
    createHmac('sha256', key).update(`${id}.${timestampHeader}.`, 'utf8').update(body).digest('base64'),
    'utf8',
  );
  let matched = false;
  for (const entry of signatures.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const candidate = Buffer.from(entry.slice(comma + 1), 'utf8');
    // Only the length (public: always 44 for SHA-256) decides before the constant-time compare.
    if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
  }
  if (!matched) throw new WebhookVerificationError('no_matching_signature', 'no v1 signature matches');

  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    throw new WebhookVerificationError('invalid_body', 'the body is not JSON');
  }
  // Signed by the holder of the secret, so it has the shape Gatehouse sends.
  return parsed as WebhookPayload<T>;
}

function keyOf(secret: string): Buffer {
  const encoded = typeof secret === 'string' && secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret;
  if (typeof encoded !== 'string' || encoded.length === 0 || !BASE64.test(encoded)) {
    throw new WebhookVerificationError('invalid_secret', 'the webhook secret is not a whsec_… value');
  }
  return Buffer.from(encoded, 'base64');
}

/** A header's value, case-insensitively, from a Headers object or a plain (e.g. node:http) object. */
function header(headers: WebhookHeaderInput, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  let value = record[name];
  if (value === undefined) {
    for (const key of Object.keys(record)) if (key.toLowerCase() === name) value = record[key];
  }
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value.join(' ');
}

/** A header that must appear once (a repeated id or timestamp is refused as missing). */
function single(headers: WebhookHeaderInput, name: string): string | undefined {
  const value = header(headers, name);
  return value === undefined || /[\s,]/.test(value) ? undefined : value;
}
