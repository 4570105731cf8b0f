import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngineKind } from '../../test/helpers/engine.js';
import { DAY } from './test-kit.js';
import { ADMIN, type NewEvent } from './types.js';

/**
 * The event log's write path on both engines: an event commits with its change or not at all,
 * `record` refuses to write outside a transaction, and retention deletes old events per project
 * in batches, by the injected clock.
 */
describe(`event log (${testEngineKind()})`, () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };
  const count = async (where: { projectId: string; type?: string }) => {
    let query = t.container.db.selectFrom('events').select((eb) => eb.fn.countAll<string>().as('n')).where('project_id', '=', where.projectId);
    if (where.type) query = query.where('type', '=', where.type);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };
  const teamEvent = (projectId: string, name: string): NewEvent<'team.created'> => ({ type: 'team.created', projectId, actor: ADMIN, subjectId: `team_${name}`, data: { name } });

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject('Events');
  });
  afterAll(async () => t.close());

  it('writes an event with its change, and none when the change rolls back after the event', async () => {
    const { events, users, schemas } = t.container;
    const schema = (await schemas.defaultFor(project.id))!;
    const before = await count({ projectId: project.id, type: 'user.created' });
    // The change, its event, then a unique violation in the same transaction: nothing stays.
    await expect(
      events.transaction(async (trx) => {
        await users.create(project.id, { schema: schema.uri, attributes: { email: 'rolled-back@example.com' } }, { trx, actor: ADMIN });
        await sql`insert into projects (id, name, secret_hash, preview_secret_hash, preview_origins, settings, created_at, updated_at)
          select id, name, secret_hash, preview_secret_hash, preview_origins, settings, created_at, updated_at from projects where id = ${project.id}`.execute(trx);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await count({ projectId: project.id, type: 'user.created' })).toBe(before);
    expect(await users.findByIdentifier(project.id, undefined, 'rolled-back@example.com')).toBeUndefined();

    // The same change committed: the user and exactly one event.
    const created = await users.create(project.id, { schema: schema.uri, attributes: { email: 'kept@example.com' } }, { actor: ADMIN });
    const rows = await t.container.db.selectFrom('events').selectAll().where('subject_id', '=', created.id).execute();
    expect(rows.map((row) => [row.type, row.actor_kind, row.subject_kind, row.data])).toEqual([['user.created', 'admin', 'user', { schema_id: schema.id, team_id: null }]]);
  });

  it('a refused change through the API leaves no event (409 user.already_exists)', async () => {
    const body = { schema: (await t.container.schemas.defaultFor(project.id))!.uri, attributes: { email: 'twice@example.com' } };
    const first = await t.app.inject({ method: 'POST', url: '/users', headers: bearer(project.project_secret), payload: body });
    expect(first.statusCode).toBe(201);
    const before = await count({ projectId: project.id, type: 'user.created' });
    const second = await t.app.inject({ method: 'POST', url: '/users', headers: bearer(project.project_secret), payload: body });
    expect(second.statusCode).toBe(409);
    expect(await count({ projectId: project.id, type: 'user.created' })).toBe(before);
  });

  it('record needs the transaction of a change: on the root connection it refuses to write', async () => {
    await expect(t.container.events.record(t.container.db, teamEvent(project.id, 'outside'))).rejects.toThrow(/transaction/);
    expect(await count({ projectId: project.id, type: 'team.created' })).toBe(0);
  });

  it('keeps only the declared fields of data and never a secret-looking value', async () => {
    const data = { name: `gh_ps_${'x'.repeat(20)}`, extra: 'not declared' } as unknown as { name: string };
    const id = await t.container.events.transaction((trx) => t.container.events.record(trx, { ...teamEvent(project.id, 'x'), data }));
    const row = await t.container.db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.data).toEqual({ name: '[redacted]' });
    expect(row.id).toMatch(/^evt_[0-9a-z]{26}$/);
  });

  it('retention: the sweeper deletes events past each project\'s events.retention_days, by the clock', async () => {
    const short = await t.createProject('Short retention');
    const patched = await t.app.inject({ method: 'PATCH', url: `/projects/${short.id}/settings`, headers: bearer(short.project_secret), payload: { events: { retention_days: 1 } } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().events).toEqual({ retention_days: 1 });
    const long = await t.createProject('Default retention');
    const { events } = t.container;
    await events.transaction((trx) => events.recordAll(trx, [teamEvent(short.id, 'a'), teamEvent(long.id, 'b')]));
    const shortBefore = await count({ projectId: short.id });
    const longBefore = await count({ projectId: long.id });

    t.clock.advance(DAY - 1000);
    expect((await t.container.sweeper.sweep()).events).toBe(0);
    t.clock.advance(2000);
    const swept = await t.container.sweeper.sweep();
    expect(swept.events).toBe(shortBefore);
    expect(await count({ projectId: short.id })).toBe(0);
    expect(await count({ projectId: long.id })).toBe(longBefore);

    // Default 90 days.
    t.clock.advance(89 * DAY - 2000);
    expect((await t.container.sweeper.sweep()).events).toBe(0);
    t.clock.advance(2000);
    expect((await t.container.sweeper.sweep()).events).toBeGreaterThanOrEqual(longBefore);
    expect(await count({ projectId: long.id })).toBe(0);
  });

  it('retention deletes in batches of 1000: a large prune is several short statements', async () => {
    const big = await t.createProject('Big');
    const { events } = t.container;
    await events.transaction((trx) => events.recordAll(trx, Array.from({ length: 2500 }, (_, i) => teamEvent(big.id, `t${i}`))));
    t.clock.advance(91 * DAY);
    const { EventStore } = await import('./store.js');
    const store = new EventStore(t.container.db);
    expect(await store.prune(t.clock.now(), 1000)).toBe(1000);
    expect(await count({ projectId: big.id })).toBeGreaterThanOrEqual(1500);
    expect(await events.prune()).toBeGreaterThanOrEqual(1500);
    expect(await count({ projectId: big.id })).toBe(0);
  });

  it('refuses a retention outside 1 to 3650 days (400 req.invalid)', async () => {
    for (const retention_days of [0, 3651, 1.5]) {
      const response = await t.app.inject({ method: 'PATCH', url: `/projects/${project.id}/settings`, headers: bearer(project.project_secret), payload: { events: { retention_days } } });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('req.invalid');
    }
  });
});
