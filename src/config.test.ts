import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const SECRET = 'a-secret-of-at-least-32-characters-long';
const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gh-config-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Loads with a fresh data directory unless the test names one. */
const load = (env: Record<string, string>) => loadConfig({ GATEHOUSE_DATA_DIR: dataDir(), ...env });

function configError(env: Record<string, string>): ConfigError {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}

describe('configuration', () => {
  it('has working defaults for an empty environment', () => {
    const dir = dataDir();
    const config = loadConfig({ GATEHOUSE_DATA_DIR: dir });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: undefined,
      dataDir: dir,
      adminTokenGenerated: true,
      // Never a request's Host (DESIGN §4.8): on a loopback HOST the default names localhost and PORT.
      publicUrl: 'http://localhost:8080',
      publicUrlDefaulted: true,
      logLevel: 'info',
      trustedProxies: [],
      smtpUrl: undefined,
      mailFrom: 'Gatehouse <no-reply@localhost>',
      sweepIntervalMs: 60_000,
      retentionMs: 24 * 3_600_000,
    });
    expect(config.adminToken).toMatch(/^gh_admin_[A-Za-z0-9_-]{43}$/);
    expect(config.secrets).toHaveLength(1);
  });

  it('generates the admin token and secret once into the data directory, private to the owner', () => {
    const dir = dataDir();
    const first = loadConfig({ GATEHOUSE_DATA_DIR: dir });
    expect(readFileSync(join(dir, 'admin-token'), 'utf8').trim()).toBe(first.adminToken);
    expect(statSync(join(dir, 'admin-token')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'secret')).mode & 0o777).toBe(0o600);
    const second = loadConfig({ GATEHOUSE_DATA_DIR: dir });
    expect(second.adminToken).toBe(first.adminToken);
    expect(second.adminTokenGenerated).toBe(false);
    expect(second.secrets[0].equals(first.secrets[0])).toBe(true);
  });

  it('reads every variable', () => {
    const config = load({
      PORT: '9090',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgresql://gh:pw@db.internal:5433/gatehouse',
      GATEHOUSE_ADMIN_TOKEN: 'admin-token-of-at-least-24-chars',
      GATEHOUSE_SECRET: `${SECRET}-new, ${SECRET}-old`,
      GATEHOUSE_PUBLIC_URL: 'https://id.example.com/',
      LOG_LEVEL: 'debug',
      GATEHOUSE_TRUSTED_PROXIES: '10.0.0.1, 10.0.0.0/8',
      SMTP_URL: 'smtps://user:pw@mail.example.com:465',
      MAIL_FROM: 'Example <id@example.com>',
      GATEHOUSE_SWEEP_INTERVAL_SECONDS: '30',
      GATEHOUSE_RETENTION_HOURS: '0',
      GATEHOUSE_SCHEMA_FETCH_ALLOW: 'https://schemas.example.com, https://cdn.example.com/ids/',
      GATEHOUSE_SCHEMA_FETCH_TIMEOUT_MS: '1000',
      GATEHOUSE_SCHEMA_FETCH_MAX_BYTES: '65536',
      GATEHOUSE_WEBHOOK_INTERVAL_MS: '250',
      GATEHOUSE_WEBHOOK_LEASE_SECONDS: '30',
      GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: '1',
      GATEHOUSE_HEAP_GROWTH_PERCENT: '40',
    });
    expect(config).toMatchObject({
      port: 9090,
      host: '0.0.0.0',
      databaseUrl: 'postgresql://gh:pw@db.internal:5433/gatehouse',
      adminToken: 'admin-token-of-at-least-24-chars',
      adminTokenGenerated: false,
      publicUrl: 'https://id.example.com',
      logLevel: 'debug',
      trustedProxies: ['10.0.0.1', '10.0.0.0/8'],
      smtpUrl: 'smtps://user:pw@mail.example.com:465',
      mailFrom: 'Example <id@example.com>',
      sweepIntervalMs: 30_000,
      retentionMs: 0,
      // A bare origin ends at a path boundary, so https://schemas.example.com.evil.net stays out.
      schemaFetch: { allow: ['https://schemas.example.com/', 'https://cdn.example.com/ids/'], timeoutMs: 1000, maxBytes: 65536 },
      webhookIntervalMs: 250,
      webhookLeaseMs: 30_000,
      // The older name of the opt-in still works.
      outboundAllowPrivate: true,
      heapGrowthPercent: 40,
    });
    // Newest first: the first secret signs and encrypts, the others only verify (rotation).
    expect(config.secrets.map((s) => s.toString())).toEqual([`${SECRET}-new`, `${SECRET}-old`]);
  });

  it('opts in to private outbound targets only when GATEHOUSE_OUTBOUND_ALLOW_PRIVATE (or GATEHOUSE_WEBHOOK_ALLOW_PRIVATE) is 1', () => {
    expect(load({}).outboundAllowPrivate).toBe(false);
    expect(load({ GATEHOUSE_OUTBOUND_ALLOW_PRIVATE: '1' }).outboundAllowPrivate).toBe(true);
    expect(load({ GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: '1' }).outboundAllowPrivate).toBe(true);
    expect(load({ GATEHOUSE_OUTBOUND_ALLOW_PRIVATE: 'true' }).outboundAllowPrivate).toBe(false);
  });

  it('derives the public URL from PORT only on a loopback HOST, and refuses a reachable HOST without one', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.5']) {
      expect(load({ HOST: host, PORT: '9000' }).publicUrl, host).toBe('http://localhost:9000');
    }
    for (const host of ['0.0.0.0', '::', '10.0.0.7', 'id.example.com']) {
      const error = configError({ HOST: host });
      expect(error.variable, host).toBe('GATEHOUSE_PUBLIC_URL');
      expect(error.message).toMatch(/^GATEHOUSE_PUBLIC_URL: must be set when HOST/);
    }
    expect(load({ HOST: '0.0.0.0', GATEHOUSE_PUBLIC_URL: 'https://id.example.com' })).toMatchObject({ publicUrl: 'https://id.example.com', publicUrlDefaulted: false });
    // Every trailing slash goes: links are built as `${publicUrl}/path`.
    expect(load({ GATEHOUSE_PUBLIC_URL: 'https://id.example.com/auth//' }).publicUrl).toBe('https://id.example.com/auth');
    for (const bad of ['https://user:pw@id.example.com', 'https://id.example.com/?next=x', 'https://id.example.com/#top', 'ftp://id.example.com', 'not a url']) {
      expect(configError({ GATEHOUSE_PUBLIC_URL: bad }).variable, bad).toBe('GATEHOUSE_PUBLIC_URL');
    }
  });

  it('never echoes the credentials of a refused URL into the start-up line', () => {
    const error = configError({ GATEHOUSE_SCHEMA_FETCH_ALLOW: 'ftp://alice:hunter2@schemas.example.com/' });
    expect(error.message).not.toContain('hunter2');
    expect(error.message).toContain('[redacted]@schemas.example.com');
    expect(configError({ GATEHOUSE_PUBLIC_URL: 'ftp://alice:hunter2@id.example.com' }).message).not.toContain('hunter2');
  });

  it('bounds the old generation to 15 % growth by default; 0 leaves it to V8', () => {
    const base = { GATEHOUSE_DATA_DIR: join(dataDir(), 'heap'), GATEHOUSE_ADMIN_TOKEN: 'admin-token-of-at-least-24-chars', GATEHOUSE_SECRET: SECRET };
    expect(loadConfig(base).heapGrowthPercent).toBe(15);
    expect(loadConfig({ ...base, GATEHOUSE_HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent).toBe(0);
  });

  it('turns the periodic sweepers off with GATEHOUSE_SWEEP_INTERVAL_SECONDS=0', () => {
    const config = loadConfig({ GATEHOUSE_DATA_DIR: join(dataDir(), 'sweep'), GATEHOUSE_ADMIN_TOKEN: 'admin-token-of-at-least-24-chars', GATEHOUSE_SECRET: SECRET, GATEHOUSE_SWEEP_INTERVAL_SECONDS: '0' });
    expect(config.sweepIntervalMs).toBe(0);
  });

  it('writes no generated admin token for a start it refuses: that token would never be printed', () => {
    for (const [variable, value] of [['PORT', 'abc'], ['GATEHOUSE_SECRET', 'too-short'], ['SMTP_URL', 'http://mail.example.com'], ['GATEHOUSE_RETENTION_HOURS', 'often']]) {
      const dir = dataDir();
      expect(() => loadConfig({ GATEHOUSE_DATA_DIR: dir, [variable]: value })).toThrow(ConfigError);
      expect(() => statSync(join(dir, 'admin-token')), variable).toThrow();
    }
  });

  it('does not write into the data directory when everything is given', () => {
    const dir = join(dataDir(), 'not-created');
    loadConfig({ GATEHOUSE_DATA_DIR: dir, GATEHOUSE_ADMIN_TOKEN: 'admin-token-of-at-least-24-chars', GATEHOUSE_SECRET: SECRET });
    expect(() => statSync(dir)).toThrow();
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '80.5'],
    ['PORT', '-1'],
    ['PORT', '65536'],
    ['DATABASE_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://root@localhost/db'],
    ['DATABASE_URL', 'postgres://user:pass@host:port/db'],
    ['GATEHOUSE_ADMIN_TOKEN', 'short'],
    ['GATEHOUSE_SECRET', 'too-short'],
    ['GATEHOUSE_SECRET', `${SECRET},short`],
    ['GATEHOUSE_PUBLIC_URL', 'id.example.com'],
    ['GATEHOUSE_PUBLIC_URL', 'ftp://id.example.com'],
    ['LOG_LEVEL', 'loud'],
    ['SMTP_URL', 'http://mail.example.com'],
    ['GATEHOUSE_SWEEP_INTERVAL_SECONDS', '86401'],
    ['GATEHOUSE_SWEEP_INTERVAL_SECONDS', 'often'],
    ['GATEHOUSE_WEBHOOK_LEASE_SECONDS', '0'],
    ['GATEHOUSE_WEBHOOK_INTERVAL_MS', 'soon'],
    ['GATEHOUSE_RETENTION_HOURS', '1e3'],
    ['GATEHOUSE_RETENTION_HOURS', '9999999'],
    ['GATEHOUSE_SCHEMA_FETCH_ALLOW', 'schemas.example.com'],
    ['GATEHOUSE_SCHEMA_FETCH_ALLOW', 'https://ok.example.com/,file:///etc/'],
    ['GATEHOUSE_SCHEMA_FETCH_TIMEOUT_MS', '50'],
    ['GATEHOUSE_SCHEMA_FETCH_MAX_BYTES', 'lots'],
    ['GATEHOUSE_HEAP_GROWTH_PERCENT', '301'],
    ['GATEHOUSE_HEAP_GROWTH_PERCENT', '-5'],
    ['GATEHOUSE_HEAP_GROWTH_PERCENT', '1.5'],
  ])('refuses %s=%s with an error naming the variable', (variable, value) => {
    const error = configError({ [variable]: value });
    expect(error.variable).toBe(variable);
    expect(error.message.startsWith(`${variable}: `)).toBe(true);
    expect(error.message).not.toContain('\n');
  });
});
