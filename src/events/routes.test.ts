import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { testEngineKind } from '../../test/helpers/engine.js';
import { ADMIN, EVENT_TYPES, type Actor, type EventResource, type NewEvent } from './types.js';

/** GET /events on both engines: newest first, cursor paging, filters, the scope and tenancy. */
describe(`GET /events (${testEngineKind()})`, () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };
  let other: { id: string; project_secret: string };
  const get = (query: string, token: string) => t.app.inject({ method: 'GET', url: `/events?${query}`, headers: bearer(token) });
  const operator: Actor = { kind: 'operator', id: 'usr_operator0000000000000000' };
  const team = (name: string, actor: Actor = ADMIN): NewEvent<'team.created'> => ({ type: 'team.created', projectId: project.id, actor, subjectId: `team_${name}`, data: { name } });
  const written: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject('Log');
    other = await t.createProject('Other');
    // 25 events in 25 instants, a few in one instant (the id breaks the tie), then other types.
    const { events } = t.container;
    for (let i = 0; i < 22; i++) {
      t.clock.advance(1000);
      written.push(await events.transaction((trx) => events.record(trx, team(`t${i}`, i % 5 === 0 ? operator : ADMIN))));
    }
    written.push(...(await events.transaction((trx) => events.recordAll(trx, [team('same-1'), team('same-2'), team('same-3')]))));
    t.clock.advance(1000);
    await events.transaction((trx) => events.record(trx, { type: 'user.deleted', projectId: project.id, actor: ADMIN, subjectId: 'usr_subject00000000000000000', data: {} }));
  });
  afterAll(async () => t.close());

  async function allPages(query: string, pageSize: number): Promise<{ pages: number; events: EventResource[] }> {
    const events: EventResource[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const response = await get(`${query}&page_size=${pageSize}${token ? `&page_token=${encodeURIComponent(token)}` : ''}`, project.project_secret);
      expect(response.statusCode, response.body).toBe(200);
      events.push(...response.json().events);
      token = response.json().next_page_token;
      pages++;
    } while (token);
    return { pages, events };
  }

  it('pages through more events than a page holds, newest first, each event once', async () => {
    const { pages, events } = await allPages('type=team.created', 10);
    expect(pages).toBe(3);
    expect(new Set(events.map((event) => event.id)).size).toBe(25);
    expect(new Set(events.map((event) => event.id))).toEqual(new Set(written));
    const order = events.map((event) => [event.occurred_at, event.id] as const);
    const sorted = [...order].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? 1 : -1) : a[0] < b[0] ? 1 : -1));
    expect(order).toEqual(sorted);
    // The project secret sees its own project without naming it.
    const own = await get('page_size=1', project.project_secret);
    expect(own.json().events[0]).toMatchObject({ type: 'user.deleted', project_id: project.id, actor: { kind: 'admin', id: null }, subject: { kind: 'user', id: 'usr_subject00000000000000000' }, data: {} });
  });

  it('filters by type, subject, actor and time', async () => {
    expect((await allPages('type=user.deleted', 50)).events.map((e) => e.type)).toEqual(['user.deleted']);
    expect((await allPages('type=user.deleted,team.created', 50)).events).toHaveLength(26);
    expect((await allPages('subject_id=team_t3', 50)).events.map((e) => e.data)).toEqual([{ name: 't3' }]);
    const byOperator = (await allPages(`actor_id=${operator.id}`, 50)).events;
    expect(byOperator.map((e) => e.data.name)).toEqual(['t20', 't15', 't10', 't5', 't0']);
    expect(byOperator.every((e) => e.actor.kind === 'operator')).toBe(true);
    const all = (await allPages('type=team.created', 50)).events;
    const pivot = all.find((e) => e.data.name === 't10')!.occurred_at;
    const since = (await allPages(`type=team.created&since=${encodeURIComponent(pivot)}`, 50)).events;
    expect(since.map((e) => e.data.name)).toEqual(all.filter((e) => e.occurred_at >= pivot).map((e) => e.data.name));
    const until = (await allPages(`type=team.created&until=${encodeURIComponent(pivot)}`, 50)).events;
    expect(until.map((e) => e.data.name)).toEqual(['t9', 't8', 't7', 't6', 't5', 't4', 't3', 't2', 't1', 't0']);
  });

  it('binds a page token to its filters and refuses bad filters with the error body (400)', async () => {
    const first = await get('type=team.created&page_size=5', project.project_secret);
    const token = first.json().next_page_token as string;
    for (const query of [
      `type=user.deleted&page_token=${encodeURIComponent(token)}`,
      'type=no.such_type',
      `type=${EVENT_TYPES.slice(0, 21).join(',')}`,
      'since=yesterday',
      'since=2030-01-02T00:00:00Z&until=2030-01-01T00:00:00Z',
      'page_size=0',
      'page_size=101',
      'page_size=5&limit=6',
      'page_token=garbage',
      'colour=blue',
    ]) {
      const response = await get(query, project.project_secret);
      expect(response.statusCode, query).toBe(400);
      expect(errorBody(response).code, query).toBe('req.invalid');
    }
    expect(errorBody(await get('type=no.such_type', project.project_secret)).details.known_types).toContain('login.failed');
  });

  it('needs event.read: a service key without it is 403, with it 200; another project is 404; the admin names the project', async () => {
    const key = async (scopes: string[]) => {
      const created = await t.app.inject({ method: 'POST', url: `/projects/${project.id}/service_keys`, headers: bearer(project.project_secret), payload: { scopes } });
      const { client_id, client_secret } = created.json();
      const token = await t.app.inject({ method: 'POST', url: '/auth/token', payload: `grant_type=client_credentials&client_id=${client_id}&client_secret=${client_secret}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      return token.json().access_token as string;
    };
    const without = await get('', await key(['user.read']));
    expect(without.statusCode).toBe(403);
    expect(errorBody(without)).toMatchObject({ code: 'auth.forbidden', details: { required_scope: 'event.read' } });
    const reader = await key(['event.read']);
    const allowed = await get('page_size=1', reader);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().events[0].project_id).toBe(project.id);
    // Another project's credential naming this project, and this project's credential naming another.
    expect(errorBody(await get(`project_id=${project.id}`, other.project_secret)).code).toBe('proj.not_found');
    expect(errorBody(await get(`project_id=${other.id}`, reader)).code).toBe('proj.not_found');
    expect((await get('', 'gh_ps_not-a-secret')).statusCode).toBe(401);
    const admin = await get('', t.adminToken);
    expect(admin.statusCode).toBe(400);
    expect((await get(`project_id=${other.id}&page_size=1`, t.adminToken)).json().events[0]).toMatchObject({ type: 'project.created', project_id: other.id });
    expect(errorBody(await get('project_id=proj_00000000000000000000000000', t.adminToken)).code).toBe('proj.not_found');
  });

  it('lists event.read among the scopes a service key can be granted', async () => {
    t.clock.advance(1000);
    const created = await t.app.inject({ method: 'POST', url: `/projects/${project.id}/service_keys`, headers: bearer(project.project_secret), payload: { scopes: ['event.read'] } });
    expect(created.statusCode).toBe(201);
    const events = (await get('type=service_key.created&page_size=1', project.project_secret)).json().events;
    expect(events[0]).toMatchObject({ actor: { kind: 'project_secret', id: null }, subject: { kind: 'service_key', id: created.json().id }, data: { name: created.json().name, scopes: ['event.read'] } });
  });
});
