import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startUpstreamIdp, type UpstreamIdp } from '../../test/helpers/upstream-idp.js';
import { ManualClock } from '../core/clock.js';
import { outboundPolicy, type OutboundPolicy } from '../core/outbound-target.js';
import { UpstreamClient, UpstreamFailure, type OpenedProvider } from './upstream.js';

const checks = { state: 'state-1', nonce: 'nonce-1', codeVerifier: 'v'.repeat(43) };
const clock = new ManualClock(new Date());
const client = (outbound: OutboundPolicy) => new UpstreamClient(clock, { outbound, timeoutSeconds: 2 });
const production = outboundPolicy({ publicUrl: 'https://id.example.com' });
const development = outboundPolicy({ publicUrl: 'http://localhost:8080' });

let rows = 0;
function provider(issuer: string, template = 'oidc'): OpenedProvider {
  return {
    project_id: 'prj_1',
    id: `acme-${++rows}`,
    updated_at: new Date(),
    template,
    issuer,
    client_id: 'gatehouse',
    client_secret_sealed: null,
    client_secret: 'upstream-client-secret',
    scopes: ['openid', 'email'],
    claims: {},
  } as unknown as OpenedProvider;
}

async function failure(promise: Promise<unknown>): Promise<UpstreamFailure> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(UpstreamFailure);
    return error as UpstreamFailure;
  }
  throw new Error('resolved');
}

/** A bare issuer on 127.0.0.1 whose discovery document names the endpoints given; counts connections. */
async function issuer(endpoints: (base: string) => Record<string, string> = () => ({})): Promise<{ base: string; connections: () => number }> {
  let connections = 0;
  let base = '';
  const server: Server = createServer((request, response) => {
    if (request.url !== '/.well-known/openid-configuration') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({ issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, jwks_uri: `${base}/jwks`, response_types_supported: ['code'], subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'], ...endpoints(base) }),
    );
  });
  server.on('connection', () => connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, connections: () => connections };
}

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

describe('upstream SSO calls go through the SSRF-safe client', () => {
  let idp: UpstreamIdp;
  beforeAll(async () => {
    idp = await startUpstreamIdp('http://localhost:8080/flow/sso/callback');
  });
  afterAll(async () => idp.close());

  it('discovers a real local issuer on a development machine (a loopback public URL), and with the operator opt-in', async () => {
    for (const outbound of [development, { ...production, allowPrivate: true }]) {
      const url = new URL(await client(outbound).authorizationUrl(provider(idp.issuer), 'http://localhost:8080/flow/sso/callback', checks));
      expect(url.origin).toBe(idp.issuer);
      expect(url.searchParams.get('state')).toBe(checks.state);
    }
  });

  it('refuses an issuer on a loopback address in production, before any connection: an upstream failure of the discovery step', async () => {
    const local = await issuer();
    const refused = await failure(client(production).authorizationUrl(provider(local.base), 'https://id.example.com/flow/sso/callback', checks));
    expect(refused.reason).toMatch(/^discovery: OutboundRequestError: private_address: 127\.0\.0\.1 is not a public address/);
    const byName = await failure(client(production).authorizationUrl(provider(local.base.replace('127.0.0.1', 'localhost')), 'https://id.example.com/flow/sso/callback', checks));
    expect(byName.reason).toMatch(/private_address: localhost resolves to .*, not a public address/);
    expect(local.connections()).toBe(0);
  });

  it('refuses private and link-local issuers even on a development machine', async () => {
    for (const base of ['https://10.0.0.1', 'https://169.254.169.254', 'https://[::ffff:192.168.1.1]']) {
      const started = performance.now();
      const refused = await failure(client(development).authorizationUrl(provider(base), 'http://localhost:8080/flow/sso/callback', checks));
      expect(refused.reason, base).toMatch(/^discovery: .*private_address/);
      expect(performance.now() - started, base).toBeLessThan(1000); // refused, not timed out connecting
    }
  });

  it('keeps the client for every later call: a token endpoint the discovery names on the cloud metadata address is refused', async () => {
    const local = await issuer(() => ({ token_endpoint: 'http://169.254.169.254/latest/token' }));
    const upstream = client(development);
    const row = provider(local.base);
    await upstream.authorizationUrl(row, 'http://localhost:8080/flow/sso/callback', checks);
    const callback = new URL(`http://localhost:8080/flow/sso/callback?code=abc&state=${checks.state}&iss=${encodeURIComponent(local.base)}`);
    const refused = await failure(upstream.profile(row, callback, checks));
    expect(refused.reason).toMatch(/^code exchange: OutboundRequestError: private_address: 169\.254\.169\.254 is not a public address/);
  });

  it("sends the github template's hand-made configuration through it too", async () => {
    const local = await issuer();
    const refused = await failure(client(production).profile(provider(local.base, 'github'), new URL(`https://id.example.com/flow/sso/callback?code=abc&state=${checks.state}`), checks));
    expect(refused.reason).toMatch(/^code exchange: OutboundRequestError: private_address: 127\.0\.0\.1 is not a public address/);
    expect(local.connections()).toBe(0);
  });
});
