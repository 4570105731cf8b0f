import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';

describe('x-unique scopes', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };
  let schemaId: string;
  const create = (attributes: Record<string, unknown>, teamId?: string, schema = schemaId) =>
    t.app.inject({
      method: 'POST',
      url: `/users?project_id=${project.id}${teamId ? `&team_id=${teamId}` : ''}`,
      headers: bearer(project.project_secret),
      payload: { schema, attributes },
    });
  const team = async (name: string) =>
    (await t.app.inject({ method: 'POST', url: `/teams?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { name } })).json().id as string;

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    schemaId = (
      await t.container.schemas.create(project.id, {
        type: 'object',
        objectType: 'employee',
        properties: {
          username: { type: 'string', 'x-unique': 'team' },
          badge: { type: 'integer', 'x-unique': 'project' },
          nickname: { type: 'string', 'x-unique': 'unspecified' },
        },
      })
    ).id;
  });
  afterAll(async () => t.close());

  it('keeps team-unique values unique within a team only, after trimming and case-folding', async () => {
    const red = await team('Red');
    const blue = await team('Blue');
    expect((await create({ username: 'ada' }, red)).statusCode).toBe(201);
    const clash = await create({ username: '  ADA ' }, red);
    expect(clash.statusCode).toBe(409);
    expect(errorBody(clash)).toMatchObject({ code: 'user.already_exists', details: { attributes: ['username'] } });
    expect((await create({ username: 'Ada' }, blue)).statusCode).toBe(201);
    expect((await create({ username: 'ada' })).statusCode).toBe(201);
    expect((await create({ username: 'ada' })).statusCode).toBe(409);
  });

  it('compares numbers exactly and ignores x-unique "unspecified"', async () => {
    expect((await create({ badge: 7, nickname: 'same' })).statusCode).toBe(201);
    expect((await create({ badge: 7 })).statusCode).toBe(409);
    expect((await create({ badge: 8, nickname: 'same' })).statusCode).toBe(201);
  });

  it('shares the unique namespace between revisions of one objectType, not across types', async () => {
    const v2 = await t.container.schemas.create(project.id, {
      type: 'object',
      objectType: 'employee',
      properties: { badge: { type: 'integer', 'x-unique': 'project' } },
    });
    expect((await create({ badge: 7 }, undefined, v2.id)).statusCode).toBe(409);
    const contractor = await t.container.schemas.create(project.id, {
      type: 'object',
      objectType: 'contractor',
      properties: { badge: { type: 'integer', 'x-unique': 'project' } },
    });
    expect((await create({ badge: 7 }, undefined, contractor.id)).statusCode).toBe(201);
  });

  it('compiles each revision once and reuses the validator', async () => {
    const schema = (await t.container.schemas.resolve(project.id, schemaId))!;
    expect(t.container.schemas.validatorFor(schema)).toBe(t.container.schemas.validatorFor(schema));
  });
});
