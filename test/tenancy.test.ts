import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompletedAttempt } from '../src/attempts/testing.js';
import { SCOPES } from '../src/core/scopes.js';
import { FlowClient, registerThroughFlow, STRONG_PASSWORD } from '../src/flows/flow-test-kit.js';
import type { CatalogRoute } from '../src/http/openapi.js';
import { clientToken, loginHandoff, serviceKey } from '../src/oauth/testing.js';
import { operator } from '../src/operators/testing.js';
import { bearer, createTestApp } from './helpers/app.js';

/**
 * Issue 12 item 6: tenancy by declaration. Every route says which project it acts on
 * (`config.tenancy`, src/http/tenancy.ts), and every route is probed with another project's
 * credentials aimed at this project's real resources: a route bound to a project or a resource
 * answers 401/403/404 and changes none of this project's rows; no route leaks them.
 * Routes are read from the app at run time, so a route added later is covered (or fails here
 * until it declares its tenancy).
 */
const t = await createTestApp();
afterAll(async () => t.close());

/** A project with one of everything, so that every path parameter names a real row. */
async function populated(name: string) {
  const project = await t.createProject(name);
  const auth = bearer(project.project_secret);
  const email = `${name.toLowerCase()}@example.com`;
  expect((await registerThroughFlow(t, project.id, email)).statusCode).toBe(200);
  const userId = (await t.container.users.findByIdentifier(project.id, undefined, email))!.id;
  const exchanged = await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${project.id}`, headers: auth, payload: { handoff_token: await loginHandoff(t, project.id, email) } });
  expect(exchanged.statusCode, exchanged.body).toBe(200);
  const team = (await t.app.inject({ method: 'POST', url: `/teams?project_id=${project.id}`, headers: auth, payload: { name: 'T' } })).json();
  const key = await serviceKey(t, project, [...SCOPES]);
  const client = (await t.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: auth, payload: { redirect_uris: ['https://app.example/cb'] } })).json();
  const schema = (await t.app.inject({ method: 'GET', url: '/schemas', headers: auth })).json().schemas[0];
  const credential = (await t.app.inject({ method: 'GET', url: `/users/${userId}/credentials`, headers: auth })).json().credentials[0];
  const flow = new FlowClient(t);
  const started = (await flow.start({ project_id: project.id, purpose: 'login' })).json();
  const listed = (await t.app.inject({ method: 'GET', url: '/flow_definitions', headers: auth })).json().flow_definitions[0];
  const definition = (await t.app.inject({ method: 'GET', url: `/flow_definitions/${listed.id}`, headers: auth })).json();
  const attempt = await createCompletedAttempt(t.container.attempts, project.id, userId);
  return {
    project,
    userId,
    email,
    session: exchanged.json() as { session_token: string; session: { session_id: string } },
    teamId: team.id as string,
    key: key as { id?: string; client_id: string; client_secret: string },
    accessToken: await clientToken(t, key.client_id, key.client_secret),
    clientId: client.client_id as string,
    schemaId: schema.id as string,
    credentialId: credential.id as string,
    flowId: started.id as string,
    flowCookie: flow.cookie!,
    definition: { id: listed.id as string, schema_uri: listed.schema_uri as string, flow_definition: definition.flow_definition as unknown },
    attemptId: attempt.id,
  };
}

const mine = await populated('Mine');
const theirs = await populated('Theirs');
// Their project admin (docs/operators.md): the operator's own system-project token, and the project token it mints.
const theirOperator = await operator(t, [{ role: 'project_admin', projectId: theirs.project.id }]);
const theirProjectToken = (await t.container.operators.mintProjectToken(theirOperator.userId, theirs.project.id)).token;
expect((await t.app.inject({ method: 'GET', url: '/projects', headers: { authorization: `Bearer ${theirOperator.accessToken}` } })).json().projects).toEqual([expect.objectContaining({ id: theirs.project.id })]);
expect((await t.app.inject({ method: 'GET', url: `/users/${theirs.userId}`, headers: { authorization: `Bearer ${theirProjectToken}` } })).statusCode).toBe(200);

/** Path parameters filled with this project's real ids. */
function pathFor(route: CatalogRoute): string {
  const byName: Record<string, string> = {
    project_id: mine.project.id,
    team_id: mine.teamId,
    user_id: mine.userId,
    key_id: mine.key.id ?? mine.key.client_id,
    session_id: mine.session.session.session_id,
    client_id: mine.clientId,
    credential_id: mine.credentialId,
    name: 'app.js',
  };
  const id = route.url.startsWith('/schemas') ? mine.schemaId : route.url.startsWith('/flow_definitions') ? mine.definition.id : route.url.startsWith('/auth_attempts') ? mine.attemptId : mine.flowId;
  return route.url.replace(/:(\w+)/g, (_match, name: string) => (name === 'id' ? id : byName[name] ?? 'x'));
}

/** Bodies that pass validation, so a by-id route reaches its lookup; anything else names this project. */
function bodyFor(route: CatalogRoute): unknown {
  const key = `${route.method} ${route.url}`;
  if (key === 'PATCH /users/:user_id') return { attributes: { email: 'taken-over@example.com', name: { given: 'X' } } };
  if (key === 'PUT /users/:user_id/password') return { password: STRONG_PASSWORD };
  if (key === 'PUT /flow_definitions/:id') return { schema_uri: mine.definition.schema_uri, flow_definition: mine.definition.flow_definition };
  if (key === 'POST /flow/:id/submit') return { action: 'continue', fields: { email: mine.email } };
  if (key === 'POST /flow/:id/event') return { type: 'fingerprint', payload: {} };
  if (key === 'POST /users/:user_id/recovery_link') return { language: 'en' };
  if (key === 'POST /projects/:project_id/webhooks') return { url: 'https://hooks.example.com/in', events: ['*'] };
  if (key === 'PATCH /projects/:project_id/webhooks/:webhook_id') return { description: 'Taken over' };
  return { project_id: mine.project.id, purpose: 'login', name: 'Taken over' };
}

const foreign = {
  'project secret': { authorization: `Bearer ${theirs.project.project_secret}` },
  'service-key token': { authorization: `Bearer ${theirs.accessToken}` },
  'preview secret': { authorization: `Bearer ${theirs.project.preview_secret}` },
  'session cookie': { cookie: `__service_session=${theirs.session.session_token}; _zflow=${theirs.flowCookie}` },
  'operator token': { authorization: `Bearer ${theirOperator.accessToken}` },
  'operator project token': { authorization: `Bearer ${theirProjectToken}` },
};

/** A digest of every row of this project, in every table with a project_id column. */
async function snapshot(): Promise<Record<string, string>> {
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.columns
    where column_name = 'project_id' and table_schema = current_schema() order by table_name`.execute(t.container.db);
  const digest: Record<string, string> = {};
  for (const { table_name: table } of tables.rows) {
    const { rows } = await sql<{ h: string }>`
      select md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as h from ${sql.table(table)} r where project_id = ${mine.project.id}`.execute(t.container.db);
    digest[table] = rows[0].h;
  }
  const project = await sql<{ h: string }>`select md5(r::text) as h from projects r where id = ${mine.project.id}`.execute(t.container.db);
  digest.projects = project.rows[0].h;
  return digest;
}

/** Public entry points: anyone may start a flow or an authorization request for a project. */
const STARTS_PUBLIC_WORK = new Set(['POST /flow', 'GET /auth/authorize', 'GET /ui/login', 'GET /ui/register', 'GET /ui/recovery', 'GET /ui/settings', 'POST /ui/login', 'POST /ui/register', 'POST /ui/recovery', 'POST /ui/settings']);
/** The interface makes these deletes idempotent: 204 also for a missing id. */
const IDEMPOTENT_DELETES = new Set(['DELETE /sessions/:session_id']);
// Deleting or rotating the foreign project would end the probing credentials; they run last.
const LAST = new Set(['POST /projects/:project_id/rotate_secret', 'DELETE /projects/:project_id']);
const routes = t.app.routeCatalog.filter((route) => route.method !== 'HEAD').sort((a, b) => Number(LAST.has(`${a.method} ${a.url}`)) - Number(LAST.has(`${b.method} ${b.url}`)));
const name = (route: CatalogRoute) => `${route.method} ${route.url}`;

describe('tenancy by declaration', () => {
  it('every route declares which project it acts on', () => {
    const undeclared = routes.filter((route) => route.tenancy === undefined).map(name);
    expect(undeclared, undeclared.join(', ')).toEqual([]);
    // Every kind is in use, so the probes below meet each of them.
    const kinds = new Set(routes.map((route) => (typeof route.tenancy === 'object' ? `project:${route.tenancy.project}` : route.tenancy)));
    for (const kind of ['project:params', 'project:query', 'project:body', 'resource', 'credential', 'instance', 'public']) expect(kinds).toContain(kind);
  });

  it('a project binding without a bearer scope is refused when the route is registered', async () => {
    const { default: Fastify } = await import('fastify');
    const { registerTenancy } = await import('../src/http/tenancy.js');
    const app = Fastify();
    registerTenancy(app, t.container.projects);
    expect(() => app.get('/unscoped', { config: { tenancy: { project: 'query' } } }, async () => 'x')).toThrow(/needs a bearer scope/);
    await app.close();
  });

  it.each(routes.map((route) => [name(route), route] as const))('%s: another project\'s credentials reach nothing of this project', async (_name, route) => {
    const kind = route.tenancy;
    for (const [credential, headers] of Object.entries(foreign)) {
      const before = await snapshot();
      // This project named wherever the route reads a project_id from the query.
      const query = 'project_id' in ((route.schema.querystring as { properties?: object } | undefined)?.properties ?? {}) || route.page ? `?project_id=${mine.project.id}` : '';
      const request: InjectOptions = { method: route.method as InjectOptions['method'], url: `${pathFor(route)}${query}`, headers: { ...headers } };
      if (['POST', 'PUT', 'PATCH'].includes(route.method)) request.payload = bodyFor(route) as InjectOptions['payload'];
      const response = await t.app.inject(request);
      const what = `${name(route)} with their ${credential} -> ${response.statusCode} ${response.body.slice(0, 200)}`;
      expect(response.statusCode, what).toBeLessThan(500);
      if (IDEMPOTENT_DELETES.has(name(route)) && response.statusCode === 204) {
        // Alike for another project's row and a missing one, and nothing is deleted (checked below).
        const missing = await t.app.inject({ ...request, url: request.url!.toString().replace(/\/[^/?]+(\?|$)/, '/sess_00000000000000000000000000$1') });
        expect(missing.statusCode, what).toBe(204);
      } else if (typeof kind === 'object' || kind === 'resource') expect([401, 403, 404], what).toContain(response.statusCode);
      if (kind === 'instance') expect([401, 403], what).toContain(response.statusCode);
      // Nothing of this project comes back: not its user, its session or its address.
      if (response.statusCode < 300) {
        for (const secret of [mine.userId, mine.session.session.session_id, mine.email, mine.teamId, mine.clientId]) expect(response.body, what).not.toContain(secret);
      }
      if (!STARTS_PUBLIC_WORK.has(name(route))) expect(await snapshot(), what).toEqual(before);
    }
  });
});
