import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';

describe('GET /schemas', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string; preview_secret: string };
  const list = async (query: string, token = project.project_secret) => {
    const ids: string[] = [];
    let token_: string | undefined;
    for (let pages = 0; pages < 50; pages++) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/schemas?${query}${token_ ? `&page_token=${encodeURIComponent(token_)}` : ''}`,
        headers: bearer(token),
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      ids.push(...body.schemas.map((s: { id: string }) => s.id));
      token_ = body.next_page_token;
      if (!token_) return ids;
    }
    throw new Error('pagination did not end');
  };
  const post = async (objectType: string, title: string) => {
    t.clock.advance(1000);
    const response = await t.app.inject({
      method: 'POST',
      url: `/schemas?project_id=${project.id}`,
      headers: bearer(project.project_secret),
      payload: { type: 'object', objectType, title, properties: { email: { type: 'string', 'x-unique': 'project' } } },
    });
    expect(response.statusCode).toBe(201);
    return response.json().id as string;
  };

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
  });
  afterAll(async () => t.close());

  it('lists every revision or only the newest of each objectType, one page at a time', async () => {
    const defaultId = (await t.container.schemas.defaultFor(project.id))!.id;
    const customerV1 = await post('customer', 'v1');
    const staffV1 = await post('staff', 'v1');
    const customerV2 = await post('customer', 'v2');
    const customerV3 = await post('customer', 'v3');
    const staffV2 = await post('staff', 'v2');
    const all = [defaultId, customerV1, staffV1, customerV2, customerV3, staffV2];
    expect(await list('limit=1')).toEqual(all);
    expect(await list('limit=2&revisions=all')).toEqual(all);
    expect(await list('limit=1&revisions=latest')).toEqual([defaultId, customerV3, staffV2]);
    expect(await list('revisions=latest')).toEqual([defaultId, customerV3, staffV2]);

    const page = (await t.app.inject({ method: 'GET', url: '/schemas?limit=1', headers: bearer(project.project_secret) })).json();
    expect(page.schemas[0]).toEqual({ id: defaultId, schema: expect.objectContaining({ objectType: 'user' }), metadata: { created_at: expect.any(String) } });
    // A token of one list is refused by another.
    const replay = await t.app.inject({
      method: 'GET',
      url: `/schemas?revisions=latest&page_token=${encodeURIComponent(page.next_page_token)}`,
      headers: bearer(project.project_secret),
    });
    expect(replay.statusCode).toBe(400);
    expect(errorBody(replay).code).toBe('req.invalid');
    const bad = await t.app.inject({ method: 'GET', url: '/schemas?revisions=some', headers: bearer(project.project_secret) });
    expect(errorBody(bad).code).toBe('req.invalid');
  });

  it('shows nothing of other projects', async () => {
    const other = await t.createProject();
    const mine = await list('', project.project_secret);
    const theirs = await list('', other.project_secret);
    expect(theirs).toHaveLength(1);
    expect(mine).not.toContain(theirs[0]);
    expect(await list(`project_id=${other.id}`, t.adminToken)).toEqual(theirs);
  });
});
