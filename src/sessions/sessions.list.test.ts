import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { MINUTE, SECOND } from '../core/clock.js';
import { clientToken, serviceKey } from '../oauth/testing.js';
import { createUser, handoffFor, projectWithUser, type Fixture } from './test-fixtures.js';

describe('operator reads: GET /sessions, POST /sessions/query, GET and DELETE /sessions/{id}', () => {
  let t: TestApp;
  let f: Fixture;
  let otherUser: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp();
    f = await projectWithUser(t);
    otherUser = await createUser(t, f.project.id, { given: 'Grace', family: 'Hopper' });
    const teamId = (await t.container.teams.create(f.project.id, 'Ops')).id;
    const schema = (await t.container.schemas.defaultFor(f.project.id))!;
    const teamUser = (await t.container.users.create(f.project.id, { schema: schema.id, attributes: { email: 'ops@example.com' } }, { teamId })).id;
    ids.teamId = teamId;
    // expired shell, live shell, two active sessions of f.userId, one of otherUser, one of teamUser
    ids.expired = (await t.container.sessions.createAnonymous(f.project.id)).session.session_id;
    t.clock.advance(11 * MINUTE);
    ids.shell = (await t.container.sessions.createAnonymous(f.project.id)).session.session_id;
    for (const [name, user] of [['a1', f.userId], ['a2', f.userId], ['b', otherUser], ['team', teamUser]] as const) {
      t.clock.advance(SECOND);
      const handoff = await handoffFor(t, f.project.id, user);
      const response = await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${f.project.id}`, headers: bearer(f.project.project_secret), payload: { handoff_token: handoff.token } });
      ids[name] = response.json().session.session_id;
    }
  });
  afterAll(async () => t.close());

  const list = (query: string, secret = f.project.project_secret) => t.app.inject({ method: 'GET', url: `/sessions?project_id=${f.project.id}${query}`, headers: bearer(secret) });
  const query = (body: unknown, secret = f.project.project_secret, projectId = f.project.id) =>
    t.app.inject({ method: 'POST', url: `/sessions/query?project_id=${projectId}`, headers: bearer(secret), payload: body as object });
  const idsOf = (response: { json(): { sessions: Array<{ session_id: string }> } }) => response.json().sessions.map((s) => s.session_id);

  it('lists every state with its state, without name and email', async () => {
    const response = await list('');
    expect(response.statusCode).toBe(200);
    const sessions = response.json().sessions as Array<Record<string, unknown>>;
    expect(sessions.map((s) => s.session_id)).toEqual([ids.expired, ids.shell, ids.a1, ids.a2, ids.b, ids.team]);
    expect(sessions.map((s) => s.state)).toEqual(['expired', 'building', 'active', 'active', 'active', 'active']);
    for (const session of sessions) {
      expect(session).not.toHaveProperty('name');
      expect(session).not.toHaveProperty('email');
    }
    expect(sessions[2]).toMatchObject({ user_id: f.userId, assurance_levels: ['urn:nist:aal:1'], factors: [{ method: 'password' }] });
    expect(response.json()).not.toHaveProperty('next_page_token');
  });

  it('filters by state and user and paginates with an opaque cursor', async () => {
    expect(idsOf(await list('&state=expired'))).toEqual([ids.expired]);
    expect(idsOf(await list('&state=building'))).toEqual([ids.shell]);
    expect(idsOf(await list('&state=active'))).toEqual([ids.a1, ids.a2, ids.b, ids.team]);
    expect(idsOf(await list(`&user_id=${f.userId}`))).toEqual([ids.a1, ids.a2]);
    const page1 = await list('&limit=4');
    expect(idsOf(page1)).toEqual([ids.expired, ids.shell, ids.a1, ids.a2]);
    const token = page1.json().next_page_token as string;
    const page2 = await list(`&limit=4&page_token=${encodeURIComponent(token)}`);
    expect(idsOf(page2)).toEqual([ids.b, ids.team]);
    expect(page2.json()).not.toHaveProperty('next_page_token');
    // A cursor is bound to its filters; a tampered one is refused.
    expect((await list(`&state=active&page_token=${encodeURIComponent(token)}`)).statusCode).toBe(400);
    expect(errorBody(await list('&page_token=abc.def')).code).toBe('req.invalid');
    for (const bad of ['&state=gone', '&limit=0', '&limit=101', '&extra=1']) expect((await list(bad)).statusCode, bad).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/sessions', headers: bearer(f.project.project_secret) })).statusCode).toBe(400);
  });

  it('queries with body filters and both sort directions; {} lists everything', async () => {
    expect(idsOf(await query({}))).toEqual([ids.expired, ids.shell, ids.a1, ids.a2, ids.b, ids.team]);
    expect(idsOf(await query({ sort: { field: 'created_at', direction: 'desc' } }))).toEqual([ids.team, ids.b, ids.a2, ids.a1, ids.shell, ids.expired]);
    expect(idsOf(await query({ user_id: otherUser }))).toEqual([ids.b]);
    expect(idsOf(await query({ lifecycle_owner_team_id: ids.teamId }))).toEqual([ids.team]);
    expect(idsOf(await query({ state: 'building' }))).toEqual([ids.shell]);
    const a1 = (await t.container.sessions.get(f.project.id, ids.a1)).created_at;
    const b = (await t.container.sessions.get(f.project.id, ids.b)).created_at;
    expect(idsOf(await query({ created_after: a1, created_before: b }))).toEqual([ids.a2]);
    const desc1 = await query({ sort: { field: 'created_at', direction: 'desc' }, limit: 2 });
    expect(idsOf(desc1)).toEqual([ids.team, ids.b]);
    const desc2 = await query({ sort: { field: 'created_at', direction: 'desc' }, limit: 2, page_token: desc1.json().next_page_token });
    expect(idsOf(desc2)).toEqual([ids.a2, ids.a1]);
    // The cursor of a descending query does not fit an ascending one.
    expect((await query({ limit: 2, page_token: desc1.json().next_page_token })).statusCode).toBe(400);
    for (const body of [{ state: 'gone' }, { created_after: 'yesterday' }, { sort: { field: 'name' } }, { extra: 1 }, { limit: 500 }, []]) {
      const response = await query(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorBody(response).code).toBe('req.invalid');
    }
  });

  it('accepts sessions.read or session.read for GET /sessions, and refuses other scopes', async () => {
    const plural = await serviceKey(t, f.project, ['sessions.read']);
    const singular = await serviceKey(t, f.project, ['session.read']);
    const writer = await serviceKey(t, f.project, ['session.write']);
    expect((await list('', await clientToken(t, plural.client_id, plural.client_secret))).statusCode).toBe(200);
    expect((await list('', await clientToken(t, singular.client_id, singular.client_secret))).statusCode).toBe(200);
    const denied = await list('', await clientToken(t, writer.client_id, writer.client_secret));
    expect(denied.statusCode).toBe(403);
    expect(errorBody(denied).code).toBe('auth.forbidden');
    expect((await query({}, await clientToken(t, singular.client_id, singular.client_secret))).statusCode).toBe(200);
  });

  it('answers 401, 403 (preview secret) and 404 (another project) on every operator endpoint', async () => {
    const other = await projectWithUser(t);
    const requests = [
      { method: 'GET' as const, url: `/sessions?project_id=${f.project.id}` },
      { method: 'POST' as const, url: `/sessions/query?project_id=${f.project.id}`, payload: {} },
      { method: 'GET' as const, url: `/sessions/${ids.a1}` },
      { method: 'DELETE' as const, url: `/sessions/${ids.a1}` },
    ];
    for (const request of requests) {
      expect((await t.app.inject({ ...request })).statusCode, request.url).toBe(401);
      const preview = await t.app.inject({ ...request, headers: bearer(f.project.preview_secret) });
      expect(preview.statusCode, request.url).toBe(403);
      expect(errorBody(preview).code).toBe('auth.forbidden');
    }
    for (const request of requests.slice(0, 2)) {
      const cross = await t.app.inject({ ...request, headers: bearer(other.project.project_secret) });
      expect(cross.statusCode).toBe(404);
      expect(errorBody(cross).code).toBe('proj.not_found');
    }
    const read = await t.app.inject({ method: 'GET', url: `/sessions/${ids.a1}`, headers: bearer(other.project.project_secret) });
    expect(read.statusCode).toBe(404);
    expect(errorBody(read).code).toBe('sess.not_found');
    // Another project's revoke answers like an unknown id and deletes nothing.
    const revoke = await t.app.inject({ method: 'DELETE', url: `/sessions/${ids.a1}`, headers: bearer(other.project.project_secret) });
    expect(revoke.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/sessions/${ids.a1}`, headers: bearer(f.project.project_secret) })).statusCode).toBe(200);
  });

  it('reads one session with name and email, and revokes idempotently, killing its token and hooks firing', async () => {
    const handoff = await handoffFor(t, f.project.id, f.userId);
    const issued = (
      await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${f.project.id}`, headers: bearer(f.project.project_secret), payload: { handoff_token: handoff.token } })
    ).json();
    const id = issued.session.session_id as string;
    const read = await t.app.inject({ method: 'GET', url: `/sessions/${id}`, headers: bearer(f.project.project_secret) });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(issued.session);
    expect(read.json().name).toBe('Ada Lovelace');

    const seen: string[] = [];
    t.container.sessions.onDeleted(async (trx, row) => {
      // Runs inside the deleting transaction: the row is already gone there.
      const still = await trx.selectFrom('sessions').select('id').where('id', '=', row.id).executeTakeFirst();
      seen.push(`${row.id}:${still === undefined}`);
    });
    expect(await t.container.sessions.isAlive(id)).toBe(true);
    for (let i = 0; i < 2; i++) {
      const response = await t.app.inject({ method: 'DELETE', url: `/sessions/${id}`, headers: bearer(f.project.project_secret) });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
    }
    expect(seen).toEqual([`${id}:true`]);
    expect(await t.container.sessions.isAlive(id)).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: '/sessions/me', headers: { cookie: `__service_session=${issued.session_token}` } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/sessions/${id}`, headers: bearer(f.project.project_secret) })).statusCode).toBe(404);
    for (const method of ['GET', 'DELETE'] as const) {
      const tooLong = await t.app.inject({ method, url: `/sessions/sess_${'a'.repeat(70)}`, headers: bearer(f.project.project_secret) });
      expect(tooLong.statusCode).toBe(400);
      expect(errorBody(tooLong).code).toBe('req.invalid');
    }
    for (const unknown of ['sess_doesnotexist000000000', 'whatever']) {
      expect((await t.app.inject({ method: 'DELETE', url: `/sessions/${unknown}`, headers: bearer(f.project.project_secret) })).statusCode).toBe(204);
      expect((await t.app.inject({ method: 'GET', url: `/sessions/${unknown}`, headers: bearer(f.project.project_secret) })).statusCode).toBe(404);
    }
  });
});
