import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import { HOUR, MINUTE } from '../core/clock.js';
import { clientToken, serviceKey } from './testing.js';

describe('oauth sweeper', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ retentionMs: HOUR });
  });
  afterAll(async () => t.close());

  it('forgets tokens only once they expired longer ago than the retention', async () => {
    const project = await t.createProject();
    const key = await serviceKey(t, project, ['team.read']);
    await clientToken(t, key.client_id, key.client_secret);
    const count = async () => (await t.container.db.selectFrom('oauth_tokens').select('id').where('client_id', '=', key.client_id).execute()).length;
    t.clock.advance(5 * MINUTE + HOUR - 1000);
    expect(await t.container.oauth.sweeper.sweep()).toMatchObject({ tokens: 0 });
    expect(await count()).toBe(1);
    t.clock.advance(2000);
    expect((await t.container.oauth.sweeper.sweep()).tokens).toBeGreaterThanOrEqual(1);
    expect(await count()).toBe(0);
  });
});
