import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isLoopbackHost, loopbackPublicUrl } from './core/public-url.js';

/** A configuration problem that stops start-up with one line naming the variable. */
export class ConfigError extends Error {
  constructor(readonly variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

/** The variables that opt in to private outbound targets: the name, then its older one (either is enough). */
export const OUTBOUND_OPT_IN_VARIABLES = ['GATEHOUSE_OUTBOUND_ALLOW_PRIVATE', 'GATEHOUSE_WEBHOOK_ALLOW_PRIVATE'] as const;

export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  /** Instance admin token; generated into the data directory when unset. */
  adminToken: string;
  /** True when the admin token was generated just now and must be printed once. */
  adminTokenGenerated: boolean;
  /** Root key material, newest first (extra entries only decrypt: rotation). */
  secrets: Buffer[];
  /**
   * GATEHOUSE_PUBLIC_URL without a trailing slash: the base of every URL the service hands out,
   * never a request's Host (DESIGN §4.8). Unset on a loopback HOST it is http://localhost:{PORT}.
   */
  publicUrl: string;
  /** True when publicUrl was not configured but derived from PORT (PORT=0 fills it in once bound). */
  publicUrlDefaulted: boolean;
  logLevel: string;
  trustedProxies: string[];
  smtpUrl?: string;
  mailFrom: string;
  /** SMTP deliveries per message and the first backoff (tests shorten it); default 4 tries from 2 s */
  mailRetry?: { attempts?: number; baseMs?: number };
  sweepIntervalMs: number;
  retentionMs: number;
  /** Webhooks (docs/events.md): how often this node looks for due deliveries (0: it sends none), and the lease of a claim. */
  webhookIntervalMs?: number;
  webhookLeaseMs?: number;
  /**
   * GATEHOUSE_OUTBOUND_ALLOW_PRIVATE (or its older name GATEHOUSE_WEBHOOK_ALLOW_PRIVATE): outbound
   * calls (webhooks, back-channel logout, upstream SSO, SAML metadata, remote schemas) may reach
   * private, loopback and link-local addresses. Without it only a loopback public URL (a development
   * machine) lets them reach loopback hosts (`outboundPolicy`, src/core/outbound-target.ts).
   */
  outboundAllowPrivate?: boolean;
  /**
   * GATEHOUSE_HEAP_GROWTH_PERCENT: how far V8's old generation may grow past its live data before
   * the next full collection, set by `gatehouse serve` at start (src/cli/heap-growth.ts); 0 leaves
   * it to V8. Default 15.
   */
  heapGrowthPercent: number;
  /** Remote user schemas: URL prefixes that may be fetched (empty: fetching is off), timeout, size cap. */
  schemaFetch?: { allow: string[]; timeoutMs: number; maxBytes: number };
}

/** docs/performance.md, "Issue 38, fifth round": the mixed soak's peak RSS 235-244 MB -> 211-217 MB. */
export const DEFAULT_HEAP_GROWTH_PERCENT = 15;

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function databaseUrl(env: Env): string | undefined {
  const raw = env.DATABASE_URL;
  if (!raw) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL', 'is not a valid URL (expected postgres://user:password@host:5432/database)');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new ConfigError('DATABASE_URL', `unsupported scheme "${parsed.protocol}" (expected postgres://)`);
  }
  return raw;
}

/** A refused value as start-up prints it: `user:password@` masked, since the line reaches logs. */
function withoutCredentials(value: string): string {
  return value.replace(/\/\/[^/@\s]*@/, '//[redacted]@');
}

function url(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
    return raw.replace(/\/+$/, '');
  } catch {
    throw new ConfigError(name, `is not an http(s) URL: "${withoutCredentials(raw)}"`);
  }
}

/** A comma-separated list of http(s) URL prefixes, each ending at a path boundary. */
function urlPrefixes(env: Env, name: string): string[] {
  const raw = env[name];
  if (!raw) return [];
  return raw.split(',').map((part) => part.trim()).filter(Boolean).map((part) => {
    let parsed: URL;
    try {
      parsed = new URL(part);
    } catch {
      throw new ConfigError(name, `is not a list of http(s) URLs: "${withoutCredentials(part)}"`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(name, `is not an http(s) URL: "${withoutCredentials(part)}"`);
    // A bare origin must not also allow https://example.com.evil.net: end every prefix with a slash.
    const text = parsed.toString();
    return text.endsWith('/') ? text : `${text}/`;
  });
}

/** Reads a generated value from the data directory, or creates it once. */
function persisted(dataDir: string, file: string, generate: () => string): { value: string; generated: boolean } {
  const path = join(dataDir, file);
  if (existsSync(path)) return { value: readFileSync(path, 'utf8').trim(), generated: false };
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const value = generate();
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  return { value, generated: true };
}

function secrets(env: Env, dataDir: string): Buffer[] {
  const raw = env.GATEHOUSE_SECRET;
  const values = raw
    ? raw.split(',').map((part) => part.trim()).filter(Boolean)
    : [persisted(dataDir, 'secret', () => randomBytes(32).toString('base64url')).value];
  for (const value of values) {
    if (value.length < 32) throw new ConfigError('GATEHOUSE_SECRET', 'each secret must be at least 32 characters');
  }
  return values.map((value) => Buffer.from(value, 'utf8'));
}

/**
 * GATEHOUSE_PUBLIC_URL, else http://localhost:{PORT} on a loopback HOST. A server reachable from
 * elsewhere must be told its public URL: guessing it from requests lets a request choose it.
 */
function publicUrl(env: Env, host: string, port: number): { publicUrl: string; publicUrlDefaulted: boolean } {
  const configured = url(env, 'GATEHOUSE_PUBLIC_URL');
  if (configured) {
    const parsed = new URL(configured);
    if (parsed.search !== '' || parsed.hash !== '' || parsed.username !== '' || parsed.password !== '') {
      throw new ConfigError('GATEHOUSE_PUBLIC_URL', 'must be a plain http(s) base URL without credentials, query or fragment');
    }
    return { publicUrl: configured, publicUrlDefaulted: false };
  }
  if (!isLoopbackHost(host)) {
    throw new ConfigError('GATEHOUSE_PUBLIC_URL', `must be set when HOST (${host}) is not a loopback address: it is the base of every link and issuer, and is never taken from a request`);
  }
  return { publicUrl: loopbackPublicUrl(port), publicUrlDefaulted: true };
}

/** The configuration without the generated values: every variable checked, no file touched (gatehouse doctor). */
export function checkSettings(env: Env = process.env): Omit<Config, 'adminToken' | 'adminTokenGenerated' | 'secrets'> {
  const dataDir = resolve(env.GATEHOUSE_DATA_DIR || './.gatehouse');
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  const dbUrl = databaseUrl(env);
  if (env.GATEHOUSE_ADMIN_TOKEN && env.GATEHOUSE_ADMIN_TOKEN.length < 24) throw new ConfigError('GATEHOUSE_ADMIN_TOKEN', 'must be at least 24 characters');
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new ConfigError('SMTP_URL', 'expected smtp:// or smtps://');
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  return {
    port,
    host,
    databaseUrl: dbUrl,
    dataDir,
    ...publicUrl(env, host, port),
    logLevel,
    trustedProxies: (env.GATEHOUSE_TRUSTED_PROXIES ?? '').split(',').map((p) => p.trim()).filter(Boolean),
    smtpUrl,
    mailFrom: env.MAIL_FROM || 'Gatehouse <no-reply@localhost>',
    sweepIntervalMs: integer(env, 'GATEHOUSE_SWEEP_INTERVAL_SECONDS', 60, 0, 86_400) * 1000,
    retentionMs: integer(env, 'GATEHOUSE_RETENTION_HOURS', 24, 0, 24 * 365) * 3_600_000,
    webhookIntervalMs: integer(env, 'GATEHOUSE_WEBHOOK_INTERVAL_MS', 1000, 0, 600_000),
    webhookLeaseMs: integer(env, 'GATEHOUSE_WEBHOOK_LEASE_SECONDS', 60, 1, 3600) * 1000,
    outboundAllowPrivate: OUTBOUND_OPT_IN_VARIABLES.some((name) => env[name] === '1'),
    heapGrowthPercent: integer(env, 'GATEHOUSE_HEAP_GROWTH_PERCENT', DEFAULT_HEAP_GROWTH_PERCENT, 0, 300),
    schemaFetch: {
      allow: urlPrefixes(env, 'GATEHOUSE_SCHEMA_FETCH_ALLOW'),
      timeoutMs: integer(env, 'GATEHOUSE_SCHEMA_FETCH_TIMEOUT_MS', 3000, 100, 60_000),
      maxBytes: integer(env, 'GATEHOUSE_SCHEMA_FETCH_MAX_BYTES', 262_144, 1024, 1_048_576),
    },
  };
}

export function loadConfig(env: Env = process.env): Config {
  const checked = checkSettings(env);
  const { dataDir } = checked;
  // Generated values are written only once every setting was accepted: a start refused for a typo
  // leaves no admin token behind that it never printed.
  const secretValues = secrets(env, dataDir);
  const admin = env.GATEHOUSE_ADMIN_TOKEN
    ? { value: env.GATEHOUSE_ADMIN_TOKEN, generated: false }
    : persisted(dataDir, 'admin-token', () => `gh_admin_${randomBytes(32).toString('base64url')}`);
  return { ...checked, adminToken: admin.value, adminTokenGenerated: admin.generated, secrets: secretValues };
}

/** A configuration for tests: no files touched, fixed secrets. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    // light-my-request's default Host (localhost:80): injected requests are same-origin by default.
    publicUrl: 'http://localhost',
    publicUrlDefaulted: false,
    dataDir: '/nonexistent',
    adminToken: 'gh_admin_test_token_0123456789abcdef',
    adminTokenGenerated: false,
    secrets: [Buffer.from('test-secret-test-secret-test-secret-0123456789')],
    logLevel: 'silent',
    trustedProxies: [],
    mailFrom: 'Gatehouse <no-reply@localhost>',
    // Tests sweep explicitly with the manual clock; a timer sweeping on real time would race them.
    sweepIntervalMs: 0,
    retentionMs: 24 * 3_600_000,
    // Tests drain webhook deliveries explicitly (the worker's `drain`), with the manual clock.
    webhookIntervalMs: 0,
    // Retries of transient SMTP failures back off for milliseconds in tests, not seconds.
    mailRetry: { attempts: 4, baseMs: 10 },
    // Only `gatehouse serve` applies it (to its own process), never an app built in a test.
    heapGrowthPercent: 0,
    ...overrides,
  };
}
