import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { SoftwareAuthenticator } from '../../../test/helpers/webauthn-authenticator.js';
import { cookieJarFetch, createGatehouseClient, FlowClient, GatehouseError, isGatehouseError, type PasskeyCeremonies } from './index.js';

const ORIGIN = 'http://localhost:4466';
const PASSWORD = 'correct horse battery staple 42';
let t: TestApp;
let base: string;
let project: { id: string; project_secret: string };
const servers: Server[] = [];

beforeAll(async () => {
  t = await createTestApp({ publicUrl: ORIGIN });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  project = await t.createProject('SDK');
});
afterAll(async () => {
  for (const server of servers) server.close();
  await t.close();
});

/** A browser-like fetch for Node: it keeps the flow cookie and sends the page's Origin. */
function browserFetch() {
  return cookieJarFetch((request) => {
    request.headers.set('origin', ORIGIN);
    return fetch(request);
  });
}

async function listening(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('createGatehouseClient: typed calls over real HTTP', () => {
  it('returns the data of a 2xx answer, typed from the generated paths', async () => {
    const gh = createGatehouseClient({ baseUrl: base, token: project.project_secret });
    // No casts: the path, query, body and answer are all typed from the generated paths.
    const team = await gh.call(gh.api.POST('/teams', { params: { query: { project_id: project.id } }, body: { name: 'support' } }));
    expect(team.name).toBe('support');
    const read = await gh.call(gh.api.GET('/teams/{team_id}', { params: { path: { team_id: team.id } } }));
    expect(read.id).toBe(team.id);
    const conflict = await gh.call(gh.api.POST('/teams', { params: { query: { project_id: project.id } }, body: { name: 'support' } })).catch((e: unknown) => e);
    expect(isGatehouseError(conflict, 'team.already_exists')).toBe(true);
    expect((conflict as GatehouseError).details).toMatchObject({ name: 'support' });
  });

  it('throws errors typed by code with the status and details, not retryable for a 4xx', async () => {
    const gh = createGatehouseClient({ baseUrl: base, token: project.project_secret });
    const error = await gh.call(gh.api.GET('/users/{user_id}', { params: { path: { user_id: 'user_doesnotexist' } } })).catch((e: unknown) => e);
    expect(isGatehouseError(error, 'user.not_found')).toBe(true);
    expect(error).toMatchObject({ kind: 'api', status: 404, retryable: false });
    const stranger = createGatehouseClient({ baseUrl: base, token: 'gh_nope' });
    const unauthorized = await stranger.call(stranger.api.GET('/teams', { params: { query: { project_id: project.id } } })).catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(GatehouseError);
    expect((unauthorized as GatehouseError).status).toBe(401);
  });

  it('turns a refused connection into a retryable network error, never a raw rejection', async () => {
    const closed = await listening(() => undefined);
    servers.pop()!.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const gh = createGatehouseClient({ baseUrl: closed });
    const error = await gh.call(gh.api.GET('/')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatehouseError);
    expect(error).toMatchObject({ kind: 'network', code: 'network', retryable: true });
  });

  it('gives up after timeoutMs with a retryable timeout error', async () => {
    const hanging = await listening(() => undefined);
    const gh = createGatehouseClient({ baseUrl: hanging, timeoutMs: 200 });
    const error = await gh.call(gh.api.GET('/')).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'timeout', code: 'timeout', retryable: true });
  });

  it('times out even when the fetch underneath loses the abort signal (nodejs/undici#4068)', async () => {
    // A fetch that never looks at the signal, as Node's does once garbage collection dropped a copied request's signal.
    const deaf = () => new Promise<Response>(() => undefined);
    const gh = createGatehouseClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 100, fetch: deaf });
    const error = await gh.call(gh.api.GET('/')).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'timeout', code: 'timeout', retryable: true });
  });

  it('reads 503 with Retry-After as retryable with the hint', async () => {
    const down = await listening((_request, response) => {
      response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '7' }).end(JSON.stringify({ code: 'unavailable', message: 'Database unreachable.', details: {} }));
    });
    const gh = createGatehouseClient({ baseUrl: down });
    const error = await gh.call(gh.api.GET('/')).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'api', code: 'unavailable', status: 503, retryable: true, retryAfterSeconds: 7 });
  });
});

describe('FlowClient: a frontend\'s flow helpers against the real runtime', () => {
  it('registers with a password, then signs in; a wrong password is a typed refusal on the same flow', async () => {
    const register = new FlowClient(createGatehouseClient({ baseUrl: base, fetch: browserFetch() }));
    await register.start({ project_id: project.id, purpose: 'register' });
    const done = await register.submit('create', { email: 'flow@example.com', 'name.given': 'Flo', 'name.family': 'W', password: PASSWORD });
    expect(done.step.type).toBe('complete');
    expect(done.handoff_token).toMatch(/^gh_ho_/);

    const login = new FlowClient(createGatehouseClient({ baseUrl: base, fetch: browserFetch() }));
    const first = await login.start({ project_id: project.id, purpose: 'login' });
    expect(login.id).toBe(first.id);
    const password = await login.submit('continue', { email: 'flow@example.com' });
    expect(password.step.fields.map((f) => f.name)).toContain('password');
    const refused = await login.submit('sign_in', { password: 'not the password at all' }).catch((e: unknown) => e);
    expect(isGatehouseError(refused, 'flow.invalid_credentials')).toBe(true);
    const signedIn = await login.submit('sign_in', { password: PASSWORD });
    expect(signedIn.handoff_token).toMatch(/^gh_ho_/);
  });

  it('follows the flow id when the flow switches (login -> register)', async () => {
    const flow = new FlowClient(createGatehouseClient({ baseUrl: base, fetch: browserFetch() }));
    const login = await flow.start({ project_id: project.id, purpose: 'login' });
    const switched = await flow.submit('sign_up');
    expect(switched.id).not.toBe(login.id);
    expect(flow.id).toBe(switched.id);
    expect((await flow.refresh()).step.name).toBe(switched.step.name);
  });

  it('runs passkey ceremonies: a passkey-only registration, then a usernameless sign-in at AAL2', async () => {
    const authenticator = new SoftwareAuthenticator();
    const ceremonies: PasskeyCeremonies = {
      startRegistration: ({ optionsJSON }) => authenticator.create(optionsJSON, { origin: ORIGIN }),
      startAuthentication: ({ optionsJSON }) => authenticator.get(optionsJSON, { origin: ORIGIN }),
    };
    const register = new FlowClient(createGatehouseClient({ baseUrl: base, fetch: browserFetch() }), ceremonies);
    await register.start({ project_id: project.id, purpose: 'register' });
    const registered = await register.passkey('passkey', { email: 'passkey-sdk@example.com', 'name.given': 'Pat' });
    expect(registered.step.type).toBe('complete');

    const login = new FlowClient(createGatehouseClient({ baseUrl: base, fetch: browserFetch() }), ceremonies);
    const started = await login.start({ project_id: project.id, purpose: 'login' });
    expect(started.step.challenge?.mediation).toBe('conditional');
    const done = await login.passkey('passkey');
    expect(done.step.type).toBe('complete');
    const { session } = await t.container.exchange.exchange(project.id, { handoffToken: done.handoff_token! });
    expect(session.assurance_levels).toContain('urn:nist:aal:2');
  });
});
