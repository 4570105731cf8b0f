import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogRoute } from '../src/http/openapi.js';
import { EVENT_CATALOGUE, EVENT_TYPES, isEventType, secretIn, type EventType } from '../src/events/types.js';
import { bearer, createTestApp, type TestApp } from './helpers/app.js';

/**
 * Events are declared next to the routes that write them (docs/events.md): every write route of
 * the API (POST, PUT, PATCH, DELETE; hosted pages excluded, they act through the same services)
 * declares `config.emits`, or `emits: []` with the reason it logs nothing (`emitsNone`). The
 * routes are read from the app at run time, so a route added later without a declaration fails.
 */

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Types no route declares, and why. */
const UNROUTED: Partial<Record<EventType, string>> = {
  'webhook.disabled': 'written by the delivery worker, not a route',
};

const key = (route: Pick<CatalogRoute, 'method' | 'url'>) => `${route.method} ${route.url}`;

describe('the event catalogue', () => {
  let t: TestApp;
  let writes: CatalogRoute[];
  beforeAll(async () => {
    t = await createTestApp();
    writes = t.app.routeCatalog.filter((route) => WRITES.has(route.method) && !route.page);
  });
  afterAll(async () => t.close());

  it('every write route of the API declares the events it writes, or why it writes none', () => {
    expect(writes.length).toBeGreaterThan(30);
    const undeclared = writes.filter((route) => route.emits === undefined).map(key);
    expect(undeclared, 'declare config.emits (or emits: [] with emitsNone: "<reason>")').toEqual([]);
    const unknown = writes.flatMap((route) => (route.emits ?? []).filter((type) => !isEventType(type)).map((type) => `${key(route)}: ${type}`));
    expect(unknown).toEqual([]);
    const unexplained = writes.filter((route) => route.emits?.length === 0 && !(route.emitsNone && route.emitsNone.length > 10)).map(key);
    expect(unexplained, 'emits: [] needs emitsNone, the reason').toEqual([]);
    const contradictory = writes.filter((route) => (route.emits?.length ?? 0) > 0 && route.emitsNone !== undefined).map(key);
    expect(contradictory).toEqual([]);
    // The honest list of routes that log nothing stays short.
    expect(writes.filter((route) => route.emits?.length === 0).length).toBeLessThanOrEqual(16);
  });

  it('every type is declared by a route, or says where it comes from', () => {
    const declared = new Set(writes.flatMap((route) => route.emits ?? []));
    const orphans = EVENT_TYPES.filter((type) => !declared.has(type) && UNROUTED[type] === undefined);
    expect(orphans).toEqual([]);
    expect(Object.keys(UNROUTED).filter((type) => declared.has(type as EventType)), 'declared now: remove from UNROUTED').toEqual([]);
  });

  it('every example holds exactly its fields and no secret-looking value (gh_ tokens, whsec_, password hashes)', () => {
    for (const type of EVENT_TYPES) {
      const { example, fields } = EVENT_CATALOGUE[type];
      expect(Object.keys(example).sort(), type).toEqual([...fields].sort());
      expect(secretIn(example), type).toBeUndefined();
    }
    // The check itself finds them.
    for (const secret of [`gh_st_${'a'.repeat(43)}`, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', '$argon2id$v=19$m=19456,t=2,p=1$abc$def', { nested: [`x gh_ps_abc`] }]) expect(secretIn(secret)).toBeDefined();
    expect(secretIn({ name: 'Shop', ids: ['usr_1'] })).toBeUndefined();
  });

  it('docs/events.md lists every type with its example', () => {
    const doc = readFileSync(new URL('../docs/events.md', import.meta.url), 'utf8');
    for (const type of EVENT_TYPES) {
      expect(doc, type).toContain(`### \`${type}\``);
      expect(doc, `${type}'s example (regenerate: npx tsx scripts/events-doc.ts)`).toContain(JSON.stringify(EVENT_CATALOGUE[type].example));
    }
    expect(doc).toMatch(/^## Webhooks$/m);
  });

  it('routes write only what they declare (a happy path of each management write)', async () => {
    const project = await t.createProject('Declared');
    const headers = bearer(project.project_secret);
    const byKey = new Map(writes.map((route) => [key(route), route]));
    const schema = (await t.container.schemas.defaultFor(project.id))!;
    const ids: Record<string, string> = {};
    const steps: Array<[string, () => { method: string; url: string; payload?: unknown }, (body: Record<string, unknown>) => void]> = [
      ['POST /teams', () => ({ method: 'POST', url: `/teams?project_id=${project.id}`, payload: { name: 'T' } }), (b) => (ids.team = b.id as string)],
      ['DELETE /teams/:team_id', () => ({ method: 'DELETE', url: `/teams/${ids.team}` }), () => {}],
      ['POST /users', () => ({ method: 'POST', url: '/users', payload: { schema: schema.uri, attributes: { email: 'declared@example.com' } } }), (b) => (ids.user = b.id as string)],
      ['PATCH /users/:user_id', () => ({ method: 'PATCH', url: `/users/${ids.user}`, payload: { attributes: { email: 'declared2@example.com' } } }), () => {}],
      ['PUT /users/:user_id/password', () => ({ method: 'PUT', url: `/users/${ids.user}/password`, payload: { password: 'a good long password 1' } }), () => {}],
      ['POST /users/:user_id/unlock', () => ({ method: 'POST', url: `/users/${ids.user}/unlock` }), () => {}],
      ['POST /users/:user_id/recovery_link', () => ({ method: 'POST', url: `/users/${ids.user}/recovery_link` }), () => {}],
      ['DELETE /users/:user_id', () => ({ method: 'DELETE', url: `/users/${ids.user}` }), () => {}],
      ['PATCH /projects/:project_id', () => ({ method: 'PATCH', url: `/projects/${project.id}`, payload: { name: 'Declared 2' } }), () => {}],
      ['PATCH /projects/:project_id/settings', () => ({ method: 'PATCH', url: `/projects/${project.id}/settings`, payload: { events: { retention_days: 7 } } }), () => {}],
      ['POST /projects/:project_id/service_keys', () => ({ method: 'POST', url: `/projects/${project.id}/service_keys`, payload: { scopes: ['event.read'] } }), (b) => (ids.key = b.id as string)],
      ['DELETE /projects/:project_id/service_keys/:key_id', () => ({ method: 'DELETE', url: `/projects/${project.id}/service_keys/${ids.key}` }), () => {}],
      ['POST /projects/:project_id/oauth_clients', () => ({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, payload: { redirect_uris: ['https://a.example/cb'] } }), (b) => (ids.client = b.client_id as string)],
      ['DELETE /projects/:project_id/oauth_clients/:client_id', () => ({ method: 'DELETE', url: `/projects/${project.id}/oauth_clients/${ids.client}` }), () => {}],
      ['PUT /projects/:project_id/sso_providers/:provider_id', () => ({ method: 'PUT', url: `/projects/${project.id}/sso_providers/g`, payload: { name: 'G', template: 'google', client_id: 'c' } }), () => {}],
      ['DELETE /projects/:project_id/sso_providers/:provider_id', () => ({ method: 'DELETE', url: `/projects/${project.id}/sso_providers/g` }), () => {}],
      ['PUT /projects/:project_id/mail_templates/:template/:language', () => ({ method: 'PUT', url: `/projects/${project.id}/mail_templates/sign_in_code/en`, payload: { subject: 'Code {{ code }}', text: 'Your code: {{ code }}' } }), () => {}],
      ['DELETE /projects/:project_id/mail_templates/:template/:language', () => ({ method: 'DELETE', url: `/projects/${project.id}/mail_templates/sign_in_code/en` }), () => {}],
      ['POST /projects/:project_id/rotate_secret', () => ({ method: 'POST', url: `/projects/${project.id}/rotate_secret` }), () => {}],
    ];
    const eventIds = async () => new Set((await t.container.db.selectFrom('events').select(['id', 'type']).where('project_id', '=', project.id).execute()).map((row) => `${row.id} ${row.type}`));
    for (const [routeKey, request, keep] of steps) {
      const route = byKey.get(routeKey);
      expect(route, routeKey).toBeDefined();
      const before = await eventIds();
      const { method, url, payload } = request();
      const response = await t.app.inject({ method: method as 'POST', url, headers, ...(payload ? { payload: payload as Record<string, unknown> } : {}) });
      expect(response.statusCode, `${routeKey}: ${response.body}`).toBeLessThan(300);
      if (response.body) keep(response.json());
      const written = [...(await eventIds())].filter((entry) => !before.has(entry)).map((entry) => entry.split(' ')[1]);
      expect(written.length, `${routeKey} wrote no event`).toBeGreaterThan(0);
      expect(written.filter((type) => !(route!.emits ?? []).includes(type as EventType)), `${routeKey} wrote undeclared types`).toEqual([]);
    }
  });
});
