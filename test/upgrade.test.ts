import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase, testEngineKind } from './helpers/engine.js';
import { cliEnv, killStartedServers, REPO_ROOT, startServe, tempDir, type RunningCli } from './helpers/process.js';
import { checkoutRelease, filesAt, PREVIOUS_RELEASE } from './helpers/release.js';

/**
 * Upgrades node by node (issue 37 item 4): the previous release's code builds its schema and
 * writes users, sessions, credentials and a flow definition through its own HTTP API; this code
 * then migrates the same PostgreSQL database and must read all of it; then an old node and a new
 * node serve the same database side by side, a login started on one finishing on the other.
 * PostgreSQL only: the embedded database belongs to one process, so there is no second node.
 */

const ADMIN = `gh_admin_${randomBytes(16).toString('hex')}`;
const SECRET = `upgrade-secret-${randomBytes(16).toString('hex')}`;
const PASSWORD = 'correct horse battery staple 42';
const EMAIL = `upgrade-${randomBytes(4).toString('hex')}@example.com`;
const APP_ID = 'upgrade-web';

interface Answer {
  status: number;
  body: Record<string, unknown>;
  cookie?: string;
}

async function call(base: string, method: string, path: string, options: { token?: string; basic?: string; body?: unknown; cookie?: string } = {}): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.basic ? { authorization: `Basic ${Buffer.from(options.basic).toString('base64')}` } : {}),
      ...(options.body !== undefined ? { 'content-type': typeof options.body === 'string' ? 'application/x-www-form-urlencoded' : 'application/json' } : {}),
      ...(options.cookie ? { cookie: `_zflow=${options.cookie}` } : {}),
    },
    body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
  });
  const text = await response.text();
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('_zflow='))?.split(';')[0].slice('_zflow='.length);
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, cookie: cookie || options.cookie };
}

/** The custom definition of the flows walkthrough: e-mail first, then the password. */
const definition = (schemaUri: string) => ({
  schema_uri: schemaUri,
  flow_definition: {
    name: 'upgrade-login',
    purposes: { login: 'identify' },
    audience: { app_ids: [APP_ID] },
    steps: [
      {
        name: 'identify',
        fields: ['email'],
        actions: [{ name: 'continue', kind: 'submit', primary: true }],
        transitions: { continue: { target: 'password' }, user_not_found: { target: 'identify' } },
      },
      { name: 'password', fields: ['x-auth-methods#password'], actions: [{ name: 'sign_in', kind: 'submit', primary: true }], transitions: { sign_in: { target: 'done' } } },
      { name: 'done', complete: 'redirect' },
    ],
  },
});

describe.skipIf(testEngineKind() !== 'postgres')(`upgrade from the previous release (${PREVIOUS_RELEASE}) node by node (PostgreSQL only)`, { timeout: 600_000 }, () => {
  const dir = tempDir('gh-upgrade-');
  let releaseRoot: string;
  let database: Awaited<ReturnType<typeof createEmptyDatabase>>;
  const running: RunningCli[] = [];
  // Written by the old code, read by the new.
  let project: { id: string; project_secret: string };
  let key: { client_id: string; client_secret: string };
  let session: { id: string; token: string };
  let definitionId: string;

  const serve = async (code: 'old' | 'new') => {
    const env = cliEnv({ DATABASE_URL: database.url, GATEHOUSE_DATA_DIR: join(dir.path, `data-${running.length}`), PORT: '0', GATEHOUSE_ADMIN_TOKEN: ADMIN, GATEHOUSE_SECRET: SECRET });
    const server = await startServe(env, 240_000, code === 'old' ? releaseRoot : undefined);
    running.push(server);
    return server;
  };
  const stop = async (server: RunningCli) => {
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  };

  /** A login through the custom definition: started on `first`, the password submitted on `second`. */
  const login = async (first: string, second: string) => {
    const started = await call(first, 'POST', '/flow', { body: { project_id: project.id, purpose: 'login', app_id: APP_ID } });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect((started.body.step as { name: string }).name).toBe('identify');
    const flow = started.body.id as string;
    const identified = await call(first, 'POST', `/flow/${flow}/submit`, { cookie: started.cookie, body: { action: 'continue', fields: { email: EMAIL } } });
    expect((identified.body.step as { name: string }).name, JSON.stringify(identified.body)).toBe('password');
    const done = await call(second, 'POST', `/flow/${identified.body.id as string}/submit`, { cookie: identified.cookie, body: { action: 'sign_in', fields: { password: PASSWORD } } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((done.body.step as { type: string }).type).toBe('complete');
    return done.body.handoff_token as string;
  };
  const exchange = async (base: string, handoff: string) => {
    const answer = await call(base, 'POST', `/sessions/exchange?project_id=${project.id}`, { token: project.project_secret, body: { handoff_token: handoff } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return { id: (answer.body.session as { session_id: string }).session_id, token: answer.body.session_token as string };
  };

  beforeAll(async () => {
    releaseRoot = checkoutRelease(join(dir.path, 'release'));
    database = await createEmptyDatabase(process.env.DATABASE_URL!, 'gh_upgrade');
  }, 120_000);

  afterAll(async () => {
    killStartedServers();
    for (const server of running) await server.exited.catch(() => undefined);
    await database?.drop();
    dir.remove();
  });

  it('the old code creates its schema and writes a project, a service key, a user with a password, a session and a flow definition', async () => {
    const old = await serve('old');
    const base = old.url;
    project = (await call(base, 'POST', '/projects', { token: ADMIN, body: { name: 'Upgrade' } })).body as typeof project;
    expect(project.id).toMatch(/^proj_/);
    const created = await call(base, 'POST', `/projects/${project.id}/service_keys`, { token: project.project_secret, body: { name: 'backend', scopes: ['session.write', 'user.read'] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    key = created.body as typeof key;

    const started = await call(base, 'POST', '/flow', { body: { project_id: project.id, purpose: 'register' } });
    const registered = await call(base, 'POST', `/flow/${started.body.id as string}/submit`, {
      cookie: started.cookie,
      body: { action: 'create', fields: { email: EMAIL, 'name.given': 'Olga', 'name.family': 'Older', password: PASSWORD } },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    session = await exchange(base, registered.body.handoff_token as string);

    const schemas = await call(base, 'GET', `/schemas?project_id=${project.id}`, { token: project.project_secret });
    const schemaUri = (schemas.body.schemas as Array<{ $id?: string; id?: string; schema?: { $id: string } }>).map((s) => s.$id ?? s.schema?.$id ?? s.id)[0]!;
    const stored = await call(base, 'POST', '/flow_definitions', { token: project.project_secret, body: definition(schemaUri) });
    expect(stored.status, JSON.stringify(stored.body)).toBe(201);
    definitionId = stored.body.id as string;
    // The old code signs in through its own definition, and its session answers.
    await exchange(base, await login(base, base));
    expect((await call(base, 'GET', '/sessions/me', { token: session.token })).status).toBe(200);
    await stop(old);
  });

  it('the new code migrates the old database, and everything the old code wrote still works', async () => {
    const newer = await serve('new');
    const base = newer.url;
    // Exactly the migrations the release did not have were applied, at the new node's start.
    const released = new Set(filesAt(PREVIOUS_RELEASE, 'src/db/migrations'));
    const since = readdirSync(join(REPO_ROOT, 'src/db/migrations')).filter((file) => file.endsWith('.sql') && !released.has(file));
    const applied = JSON.parse(`[${/"migrations":\[([^\]]*)\]/.exec(newer.output())?.[1] ?? ''}]`) as string[];
    expect(since.length).toBeGreaterThan(0);
    expect(applied.filter((version) => !version.includes('/'))).toEqual(since);
    const me = await call(base, 'GET', '/sessions/me', { token: session.token });
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect((me.body.session as { session_id: string } | undefined)?.session_id ?? me.body.session_id).toBe(session.id);
    const loaded = await call(base, 'GET', `/flow_definitions/${definitionId}`, { token: project.project_secret });
    expect(loaded.status).toBe(200);
    expect(JSON.stringify(loaded.body)).toContain('upgrade-login');
    // The old password, through the old definition, on the new code.
    await exchange(base, await login(base, base));
    const token = await call(base, 'POST', '/auth/token', { basic: `${key.client_id}:${key.client_secret}`, body: 'grant_type=client_credentials' });
    expect(token.status, JSON.stringify(token.body)).toBe(200);
  });

  it('an old node and a new node serve the same database side by side: a login started on either finishes on the other', async () => {
    const [old, newer] = [await serve('old'), running[1]];
    for (const [first, second] of [[old.url, newer.url], [newer.url, old.url]]) {
      const fresh = await exchange(first, await login(first, second));
      for (const base of [old.url, newer.url]) expect((await call(base, 'GET', '/sessions/me', { token: fresh.token })).status, base).toBe(200);
    }
    // A revocation through the new node holds on the old one too.
    expect((await call(newer.url, 'DELETE', `/sessions/${session.id}`, { token: project.project_secret })).status).toBe(204);
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline && (status = (await call(old.url, 'GET', '/sessions/me', { token: session.token })).status) !== 401) await new Promise((r) => setTimeout(r, 20));
    expect(status).toBe(401);
    await Promise.all([stop(old), stop(newer)]);
  });
});
