import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { SELF } from '../events/types.js';

describe('x-audit trail', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string; preview_secret: string };
  let schemaId: string;
  const trail = (userId: string, query = '', token = project.project_secret) =>
    t.app.inject({ method: 'GET', url: `/users/${userId}/audit${query}`, headers: bearer(token) });

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    schemaId = (
      await t.container.schemas.create(project.id, {
        type: 'object',
        objectType: 'audited',
        properties: {
          email: { type: 'string', 'x-unique': 'project', 'x-audit': true },
          phone: { type: 'string', 'x-audit': true },
          address: { type: 'object', properties: { city: { type: 'string', 'x-audit': true } } },
          nickname: { type: 'string' },
        },
      })
    ).id;
  });
  afterAll(async () => t.close());

  it('records who changed which audited attribute when, never the values', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/users?project_id=${project.id}`,
      headers: bearer(project.project_secret),
      payload: { schema: schemaId, attributes: { email: 'old@example.com', phone: '+100', nickname: 'n' } },
    });
    const userId = created.json().id;
    const createdAt = t.clock.now().toISOString();
    t.clock.advance(60_000);
    await t.container.users.updateAttributes(
      project.id,
      userId,
      { email: 'new@example.com', address: { city: 'Paris' }, nickname: 'changed, not audited' },
      { actor: SELF },
    );
    const updatedAt = t.clock.now().toISOString();
    const response = await trail(userId);
    expect(response.statusCode).toBe(200);
    const events = response.json().events.map(({ id: _id, ...rest }: { id: string }) => rest);
    // Events of one instant are ordered by id, so compare each instant as a set.
    const byAttribute = (a: { attribute: string }, b: { attribute: string }) => a.attribute.localeCompare(b.attribute);
    expect(events.slice(0, 2).sort(byAttribute)).toEqual([
      { attribute: 'email', action: 'set', actor: 'project_secret', created_at: createdAt },
      { attribute: 'phone', action: 'set', actor: 'project_secret', created_at: createdAt },
    ]);
    expect(events.slice(2)).toEqual(Array(3).fill(expect.objectContaining({ actor: 'self', created_at: updatedAt })));
    expect(events.slice(2).map((e: { attribute: string; action: string }) => `${e.attribute}:${e.action}`).sort()).toEqual([
      'address.city:set',
      'email:changed',
      'phone:removed',
    ]);
    for (const value of ['old@example.com', 'new@example.com', '+100', 'Paris']) expect(response.body).not.toContain(value);
    // The old identifier is free again, the new one taken.
    expect(await t.container.users.findByIdentifier(project.id, undefined, 'old@example.com')).toBeUndefined();
    expect((await t.container.users.findByIdentifier(project.id, undefined, 'NEW@example.com'))?.id).toBe(userId);

    const first = (await trail(userId, '?limit=2')).json();
    expect(first.events).toHaveLength(2);
    expect(first.next_page_token).toBeTruthy();
  });

  it('refuses an update that takes another user identifier and changes nothing', async () => {
    const a = await t.container.users.create(project.id, { schema: schemaId, attributes: { email: 'a@example.com' } });
    await t.container.users.create(project.id, { schema: schemaId, attributes: { email: 'b@example.com' } });
    await expect(t.container.users.updateAttributes(project.id, a.id, { email: 'B@example.com' })).rejects.toMatchObject({ code: 'user.already_exists' });
    expect((await t.container.users.get(project.id, a.id)).attributes).toEqual({ email: 'a@example.com' });
    expect((await t.container.users.findByIdentifier(project.id, undefined, 'a@example.com'))?.id).toBe(a.id);
  });

  it('is readable with user.read only, and hidden from other projects', async () => {
    const user = await t.container.users.create(project.id, { schema: schemaId, attributes: { email: 'c@example.com' } });
    expect((await t.app.inject({ method: 'GET', url: `/users/${user.id}/audit` })).statusCode).toBe(401);
    expect((await trail(user.id, '', project.preview_secret)).statusCode).toBe(403);
    const other = await t.createProject();
    const hidden = await trail(user.id, '', other.project_secret);
    expect(hidden.statusCode).toBe(404);
    expect(errorBody(hidden).code).toBe('user.not_found');
  });
});
