import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { createContainer, type Container } from '../../src/container.js';
import { ManualClock } from '../../src/core/clock.js';
import { registerThroughFlow } from '../../src/flows/flow-test-kit.js';
import { basic, challengeOf, loginHandoff, postForm } from '../../src/oauth/testing.js';
import type { TestApp } from '../helpers/app.js';
import { openTestEngine, type TestEngine } from '../helpers/engine.js';

const ISSUER = 'https://id.example.com';
const REDIRECT = 'https://rp.example.com/cb';
const VERIFIER = 'b'.repeat(43);
const EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/**
 * OpenID Connect Back-Channel Logout 1.0: a real HTTP receiver on loopback gets a logout token
 * when a session with the client's tokens ends; failures are retried with backoff, and the queue
 * lives in the database, so a second instance on the same database delivers what the first could not.
 */
describe('OIDC conformance: back-channel logout', () => {
  let engine: TestEngine;
  const clock = new ManualClock(new Date());
  // The issuer is a production URL and the receiver is on loopback: reached on the operator's opt-in.
  const config = testConfig({ publicUrl: ISSUER, outboundAllowPrivate: true });
  let first: { container: Container; app: FastifyInstance };
  let project: { id: string; project_secret: string };
  let rp: { client_id: string; client_secret: string };
  let receiver: Server;
  let receiverUrl: string;
  const received: string[] = [];
  let answer = 200;

  const instance = async () => {
    const container = createContainer(config, { engine: engine.engine, clock });
    return { container, app: await buildApp(container) };
  };
  /** The TestApp shape the shared test kits take, over one instance. */
  const kit = (i: { container: Container; app: FastifyInstance }) => ({ app: i.app, container: i.container, clock, adminToken: config.adminToken }) as unknown as TestApp;

  beforeAll(async () => {
    engine = await openTestEngine();
    first = await instance();
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push(new URLSearchParams(body).get('logout_token') ?? '');
        response.writeHead(answer).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/backchannel`;
    project = (await first.app.inject({ method: 'POST', url: '/projects', headers: { authorization: `Bearer ${config.adminToken}` }, payload: { name: 'BCL' } })).json();
    await registerThroughFlow(kit(first), project.id, 'bcl@example.com');
    rp = (await first.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: { authorization: `Bearer ${project.project_secret}` }, payload: { redirect_uris: [REDIRECT], backchannel_logout_uri: receiverUrl } })).json();
  });
  afterAll(async () => {
    receiver?.close();
    await first?.app.close();
    await engine?.close();
  });

  const location = (response: LightMyRequestResponse) => new URL(response.headers.location as string);
  /** A sign-in of `rp` on `at`: its tokens. */
  const signIn = async (at = first) => {
    const t = kit(at);
    const query = new URLSearchParams({ response_type: 'code', client_id: rp.client_id, redirect_uri: REDIRECT, scope: 'openid', state: 's', code_challenge: await challengeOf(VERIFIER), code_challenge_method: 'S256' });
    const started = await at.app.inject({ method: 'GET', url: `/auth/authorize?${query}` });
    const binding = `__gh_authz=${started.cookies.find((c) => c.name === '__gh_authz')!.value}`;
    const resumed = await postForm(t, '/auth/authorize/resume', { authorization_id: location(started).searchParams.get('authorization_id')!, handoff_token: await loginHandoff(t, project.id, 'bcl@example.com') }, { cookie: binding });
    return (await postForm(t, '/auth/token', { grant_type: 'authorization_code', code: location(resumed).searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: VERIFIER }, basic(rp.client_id, rp.client_secret))).json();
  };
  const endSession = async (idToken: string, at = first) => {
    const sid = JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString()).sid as string;
    expect((await at.app.inject({ method: 'DELETE', url: `/sessions/${sid}`, headers: { authorization: `Bearer ${project.project_secret}` } })).statusCode).toBe(204);
    return sid;
  };

  it('discovery says back-channel logout (with sid) is supported', async () => {
    const metadata = (await first.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' })).json();
    expect(metadata).toMatchObject({ backchannel_logout_supported: true, backchannel_logout_session_supported: true });
  });

  it('posts a signed logout token (typ logout+jwt, sid, sub, events, no nonce) when the session ends', async () => {
    const tokens = await signIn();
    const sid = await endSession(tokens.id_token);
    received.length = 0;
    expect(await first.container.oauth.backchannel.deliver()).toMatchObject({ sent: 1 });
    expect(received).toHaveLength(1);
    const jwks = createLocalJWKSet((await first.app.inject({ method: 'GET', url: '/auth/jwks' })).json());
    const { payload } = await jwtVerify(received[0], jwks, { issuer: ISSUER, audience: rp.client_id, currentDate: clock.now() });
    expect(decodeProtectedHeader(received[0]).typ).toBe('logout+jwt');
    expect(payload).toMatchObject({ sid, sub: JSON.parse(Buffer.from(tokens.id_token.split('.')[1], 'base64url').toString()).sub, events: { [EVENT]: {} } });
    expect(payload.nonce).toBeUndefined();
    expect(typeof payload.jti).toBe('string');
    // Sent once: nothing is due any more.
    expect(await first.container.oauth.backchannel.deliver()).toEqual({ sent: 0, failed: 0, retried: 0 });
  });

  it('retries a receiver that fails, with backoff, until it accepts', async () => {
    const tokens = await signIn();
    await endSession(tokens.id_token);
    answer = 500;
    received.length = 0;
    expect(await first.container.oauth.backchannel.deliver()).toMatchObject({ retried: 1 });
    expect(await first.container.oauth.backchannel.deliver()).toMatchObject({ retried: 0, sent: 0 });
    answer = 200;
    clock.advance(5_000);
    expect(await first.container.oauth.backchannel.deliver()).toMatchObject({ sent: 1 });
    expect(received).toHaveLength(2);
  });

  it('is never lost on restart: what one instance could not deliver, another on the same database does', async () => {
    const tokens = await signIn();
    await endSession(tokens.id_token);
    answer = 503;
    expect(await first.container.oauth.backchannel.deliver()).toMatchObject({ retried: 1 });
    await first.app.close();
    const second = await instance();
    try {
      answer = 200;
      received.length = 0;
      clock.advance(5_000);
      expect(await second.container.oauth.backchannel.deliver()).toMatchObject({ sent: 1 });
      expect(received).toHaveLength(1);
    } finally {
      first = second;
    }
  });

  it('sessions without tokens of a back-channel client leave nothing to deliver', async () => {
    const other = (await first.app.inject({ method: 'POST', url: `/sessions`, headers: { authorization: `Bearer ${project.project_secret}` }, payload: { project_id: project.id } })).json();
    await first.app.inject({ method: 'DELETE', url: `/sessions/${other.session.session_id}`, headers: { authorization: `Bearer ${project.project_secret}` } });
    expect(await first.container.oauth.backchannel.deliver()).toEqual({ sent: 0, failed: 0, retried: 0 });
  });

  it('refuses a backchannel_logout_uri that is not https (or http on loopback)', async () => {
    for (const uri of ['http://rp.example.com/bcl', 'https://rp.example.com/bcl#x', 'not a url']) {
      const refused = await first.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: { authorization: `Bearer ${project.project_secret}` }, payload: { redirect_uris: [REDIRECT], backchannel_logout_uri: uri } });
      expect(refused.statusCode, uri).toBe(400);
    }
  });
});
