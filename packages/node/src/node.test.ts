import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cookieJarFetch, createGatehouseClient, FlowClient, isGatehouseError } from '@gatehouse/client';
import express from 'express';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { SoftwareAuthenticator } from '../../../test/helpers/webauthn-authenticator.js';
import { fastifyRequireSession, Gatehouse, LogoutTokenVerifier, requireSession, withSession, type SessionContext } from './index.js';

const ORIGIN = 'http://localhost:4477';
const PASSWORD = 'correct horse battery staple 42';
let t: TestApp;
let base: string;
let project: { id: string; project_secret: string };
let serviceKey: { clientId: string; clientSecret: string };
const servers: Array<{ close(): unknown }> = [];

beforeAll(async () => {
  t = await createTestApp({ publicUrl: ORIGIN });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  project = await t.createProject('Node SDK');
  const key = await t.app.inject({
    method: 'POST',
    url: `/projects/${project.id}/service_keys`,
    headers: { authorization: `Bearer ${project.project_secret}` },
    payload: { name: 'backend', scopes: ['session.write', 'session.read'] },
  });
  serviceKey = { clientId: key.json().client_id, clientSecret: key.json().client_secret };
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await t.close();
});

/** A browser (cookie jar, the page's Origin) running the flow API. */
function browser(ceremonies?: ConstructorParameters<typeof FlowClient>[1]): FlowClient {
  const fetchImpl = cookieJarFetch((request) => {
    request.headers.set('origin', ORIGIN);
    return fetch(request);
  });
  return new FlowClient(createGatehouseClient({ baseUrl: base, fetch: fetchImpl }), ceremonies);
}

let users = 0;
/** A handoff token of a fresh password user (AAL1). */
async function passwordHandoff(): Promise<string> {
  const flow = browser();
  await flow.start({ project_id: project.id, purpose: 'register' });
  const done = await flow.submit('create', { email: `user${++users}@example.com`, 'name.given': 'U', 'name.family': 'Ser', password: PASSWORD });
  return done.handoff_token!;
}

/** A handoff token of a fresh passkey user (AAL2). */
async function passkeyHandoff(): Promise<string> {
  const authenticator = new SoftwareAuthenticator();
  const flow = browser({
    startRegistration: ({ optionsJSON }) => authenticator.create(optionsJSON, { origin: ORIGIN }),
    startAuthentication: ({ optionsJSON }) => authenticator.get(optionsJSON, { origin: ORIGIN }),
  });
  await flow.start({ project_id: project.id, purpose: 'register' });
  const done = await flow.passkey('passkey', { email: `passkey${++users}@example.com`, 'name.given': 'P' });
  return done.handoff_token!;
}

/** A fetch that counts what it sends, by path. */
function countingFetch() {
  const counts = new Map<string, number>();
  const send = (request: Request) => {
    const path = new URL(request.url).pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    return fetch(request);
  };
  return Object.assign(send, { counts });
}

describe('Gatehouse (server side): handoff exchange with a service key', () => {
  it('exchanges handoff tokens with one cached access token, and fetches a new one when it nears its end', async () => {
    let now = Date.now();
    const fetchImpl = countingFetch();
    const gatehouse = new Gatehouse({ baseUrl: base, projectId: project.id, serviceKey, fetch: fetchImpl, now: () => now });
    const [a, b] = await Promise.all([gatehouse.exchangeHandoff(await passwordHandoff()), gatehouse.exchangeHandoff(await passwordHandoff())]);
    expect(a.session_token).toMatch(/^gh_st_/);
    expect(b.session.state).toBe('active');
    expect(fetchImpl.counts.get('/auth/token')).toBe(1);
    // The access token lives 5 minutes; 30 s before its end a new one is fetched.
    now += 271_000;
    await gatehouse.exchangeHandoff(await passwordHandoff());
    expect(fetchImpl.counts.get('/auth/token')).toBe(2);
  });

  it('a used handoff token is a typed error; a wrong service key secret too', async () => {
    const gatehouse = new Gatehouse({ baseUrl: base, projectId: project.id, serviceKey });
    const handoff = await passwordHandoff();
    await gatehouse.exchangeHandoff(handoff);
    const again = await gatehouse.exchangeHandoff(handoff).catch((e: unknown) => e);
    expect(isGatehouseError(again)).toBe(true);
    expect((again as { status: number }).status).toBeGreaterThanOrEqual(400);
    const wrong = new Gatehouse({ baseUrl: base, projectId: project.id, serviceKey: { ...serviceKey, clientSecret: 'gh_sk_wrong' } });
    const refused = await wrong.exchangeHandoff(await passwordHandoff()).catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'api', status: 401, code: 'oauth.invalid_client' });
  });
});

describe('verifySession: a short cache with a revocation bound', () => {
  it('answers from the cache within sessionCacheMs, and sees a revocation once it has passed', async () => {
    let now = Date.now();
    const fetchImpl = countingFetch();
    const gatehouse = new Gatehouse({ baseUrl: base, projectId: project.id, serviceKey, fetch: fetchImpl, sessionCacheMs: 5_000, now: () => now });
    const { session, session_token: token } = await gatehouse.exchangeHandoff(await passwordHandoff());
    expect((await gatehouse.verifySession(token))?.session_id).toBe(session.session_id);
    expect((await gatehouse.verifySession(token))?.session_id).toBe(session.session_id);
    expect(fetchImpl.counts.get('/sessions/me')).toBe(1);

    const revoked = await t.app.inject({ method: 'DELETE', url: `/sessions/${session.session_id}`, headers: { authorization: `Bearer ${project.project_secret}` } });
    expect(revoked.statusCode).toBe(204);
    // Within the bound the cached answer may still be served; at the bound it is not.
    now += 4_999;
    expect(await gatehouse.verifySession(token)).toBeDefined();
    now += 1;
    expect(await gatehouse.verifySession(token)).toBeUndefined();
    expect(fetchImpl.counts.get('/sessions/me')).toBe(2);
  });

  it('treats malformed tokens as no session without asking Gatehouse', async () => {
    const fetchImpl = countingFetch();
    const gatehouse = new Gatehouse({ baseUrl: base, projectId: project.id, fetch: fetchImpl });
    for (const token of [undefined, '', 'x', 'a'.repeat(600), 'gh_st_\u0000', 'gh st with spaces']) expect(await gatehouse.verifySession(token)).toBeUndefined();
    expect(fetchImpl.counts.size).toBe(0);
    expect(await gatehouse.verifySession('gh_st_doesnotexist0123456789')).toBeUndefined();
  });
});

type Answer = { status: number; body: { code?: string; details?: Record<string, unknown>; session_id?: string } ; retryAfter: string | null };

async function get(url: string, cookie?: string): Promise<Answer> {
  const response = await fetch(url, { headers: cookie === undefined ? {} : { cookie } });
  return { status: response.status, body: (await response.json()) as Answer['body'], retryAfter: response.headers.get('retry-after') };
}

async function listen(server: Server): Promise<string> {
  servers.push({ close: () => new Promise((resolve) => server.close(resolve)) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('requireSession in Express, Fastify and node:http', () => {
  let gatehouse: Gatehouse;
  let aal1: string;
  let aal2: string;
  const apps: Record<string, string> = {};

  beforeAll(async () => {
    gatehouse = new Gatehouse({ baseUrl: base, projectId: project.id, serviceKey });
    aal1 = (await gatehouse.exchangeHandoff(await passwordHandoff())).session_token;
    aal2 = (await gatehouse.exchangeHandoff(await passkeyHandoff())).session_token;

    const shop = express();
    shop.get('/account', requireSession(gatehouse), (request, response) => {
      response.json({ session_id: (request as unknown as { gatehouse: SessionContext }).gatehouse.session.session_id });
    });
    shop.get('/email', requireSession(gatehouse, { aal: 2 }), (_request, response) => {
      response.json({ ok: true });
    });
    apps.express = await listen(createServer(shop));

    const fastify = Fastify();
    fastify.get('/account', { preHandler: fastifyRequireSession(gatehouse) }, async (request) => ({ session_id: (request as unknown as { gatehouse: SessionContext }).gatehouse.session.session_id }));
    fastify.get('/email', { preHandler: fastifyRequireSession(gatehouse, { aal: 'urn:nist:aal:2' }) }, async () => ({ ok: true }));
    apps.fastify = await fastify.listen({ port: 0, host: '127.0.0.1' });
    servers.push({ close: () => fastify.close() });

    const routes = (aal?: 2) =>
      withSession(
        gatehouse,
        (request: IncomingMessage & { gatehouse: SessionContext }, response) => {
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ session_id: request.gatehouse.session.session_id, ok: true }));
        },
        { aal },
      );
    const account = routes();
    const email = routes(2);
    apps.http = await listen(createServer((request, response) => void (request.url === '/email' ? email : account)(request, response)));
  });

  for (const framework of ['express', 'fastify', 'http']) {
    it(`${framework}: 401 without a session or with a malformed one, 403 naming the missing level, 200 otherwise`, async () => {
      const url = apps[framework];
      expect((await get(`${url}/account`)).status).toBe(401);
      const malformed = await get(`${url}/account`, 'gatehouse_session=%E0%A4%A; other=1');
      expect(malformed.status).toBe(401);
      expect(malformed.body.code).toBe('auth.unauthorized');
      expect((await get(`${url}/account`, 'gatehouse_session=gh_st_unknown0123456789')).status).toBe(401);

      const account = await get(`${url}/account`, `gatehouse_session=${aal1}`);
      expect(account.status).toBe(200);
      expect(account.body.session_id).toMatch(/^sess_/);
      const stepUp = await get(`${url}/email`, `gatehouse_session=${aal1}`);
      expect(stepUp.status).toBe(403);
      expect(stepUp.body).toMatchObject({ code: 'auth.forbidden', details: { required_assurance_level: 'urn:nist:aal:2', assurance_levels: ['urn:nist:aal:1'] } });
      expect((await get(`${url}/email`, `gatehouse_session=${aal2}`)).status).toBe(200);
    });
  }

  it('answers 503 with Retry-After when Gatehouse cannot be reached (never a crash)', async () => {
    const unreachable = new Gatehouse({ baseUrl: 'http://127.0.0.1:9', projectId: project.id, timeoutMs: 500 });
    const app = express();
    app.get('/account', requireSession(unreachable), (_request, response) => {
      response.json({});
    });
    const url = await listen(createServer(app));
    const answer = await get(`${url}/account`, 'gatehouse_session=gh_st_whatever0123456789');
    expect(answer.status).toBe(503);
    expect(answer.body.code).toBe('unavailable');
    expect(answer.retryAfter).toBe('1');
  });
});

describe('LogoutTokenVerifier: back-channel logout tokens checked as Back-Channel Logout 1.0 §2.6 says', () => {
  const EVENT = 'http://schemas.openid.net/event/backchannel-logout';
  const clientId = 'oc_backchannelclient01';
  const sign = (claims: Record<string, unknown>, typ = 'logout+jwt') => {
    const now = Math.floor(Date.now() / 1000);
    return t.container.oauth.signingKeys.sign({ iss: ORIGIN, aud: clientId, iat: now, exp: now + 120, jti: `j-${Math.random()}`, sid: 'sess_x', events: { [EVENT]: {} }, ...claims }, typ);
  };
  const verifier = () => new LogoutTokenVerifier({ issuer: ORIGIN, clientId, jwksUrl: `${base}/auth/jwks` });

  it('accepts a token Gatehouse signed, and forgets the session it names', async () => {
    const gatehouse = new Gatehouse({ baseUrl: base, projectId: project.id, serviceKey });
    const { session, session_token: token } = await gatehouse.exchangeHandoff(await passwordHandoff());
    expect(await gatehouse.verifySession(token)).toBeDefined();
    const logout = await verifier().verify(await sign({ sid: session.session_id, sub: session.user_id }));
    expect(logout).toEqual({ sid: session.session_id, sub: session.user_id });
    gatehouse.forgetSession(logout.sid!);
    await t.app.inject({ method: 'DELETE', url: `/sessions/${session.session_id}`, headers: { authorization: `Bearer ${project.project_secret}` } });
    // Forgotten at once, not after the cache bound.
    expect(await gatehouse.verifySession(token)).toBeUndefined();
  });

  it('refuses a wrong typ, audience or issuer, a nonce, a missing event, a replay and a forged signature', async () => {
    const v = verifier();
    const refusals = [
      await sign({}, 'JWT'),
      await sign({ aud: 'oc_someoneelse' }),
      await sign({ iss: 'https://elsewhere.example' }),
      await sign({ nonce: 'n' }),
      await sign({ events: {} }),
      await sign({ sid: undefined, sub: undefined }),
    ];
    for (const token of refusals) await expect(v.verify(token)).rejects.toThrow();
    const once = await sign({});
    await v.verify(once);
    await expect(v.verify(once)).rejects.toThrow(/replayed/);
    const [h, p, s] = (await sign({})).split('.');
    await expect(v.verify(`${h}.${p}.${s.slice(0, -4)}AAAA`)).rejects.toThrow();
    await expect(v.verify('x'.repeat(9000))).rejects.toThrow();
  });
});
