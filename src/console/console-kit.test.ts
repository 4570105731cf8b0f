import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import { consoleBrowser } from './console-test-kit.js';

const ORIGIN = 'http://localhost';

describe('console test kit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: ORIGIN });
  });
  afterAll(async () => t.close());

  it('signs a new instance admin in to the console', async () => {
    const browser = await consoleBrowser(t, [{ role: 'instance_admin' }], ORIGIN);
    const home = await browser.get('/console');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain(browser.userId);
    expect((await browser.post('/console/projects', { name: 'Kit' })).statusCode).toBe(201);
  });
});
