import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createListeningTestApp, type TestApp } from '../../../test/helpers/app.js';
import { SHOP_SCOPES, shopProject } from './setup.js';

/**
 * Which project the shop runs in (issue 39): the one GATEHOUSE_PROJECT_ID and a service key name,
 * creating nothing; else its own, made once. Against a real Gatehouse over real HTTP.
 */
describe('examples/express-shop: the project from the environment, or its own', () => {
  let t: TestApp & { base: string };
  const shopUrl = 'http://localhost:3999';
  const file = () => join(mkdtempSync(join(tmpdir(), 'shop-setup-')), '.shop.json');
  const projectCount = async () => {
    const response = await fetch(`${t.base}/projects?limit=100`, { headers: { authorization: `Bearer ${t.adminToken}` } });
    return ((await response.json()) as { projects: unknown[] }).projects.length;
  };

  beforeAll(async () => {
    t = await createListeningTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('uses GATEHOUSE_PROJECT_ID with GATEHOUSE_KEY_ID and GATEHOUSE_KEY_SECRET, creates nothing and never reads the admin token', async () => {
    const project = await t.createProject('Mine already');
    const created = await fetch(`${t.base}/projects/${project.id}/service_keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${project.project_secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'shop', scopes: SHOP_SCOPES }),
    });
    const key = (await created.json()) as { client_id: string; client_secret: string };
    const before = await projectCount();
    const env = { GATEHOUSE_PROJECT_ID: project.id, GATEHOUSE_KEY_ID: key.client_id, GATEHOUSE_KEY_SECRET: key.client_secret };
    const path = file();
    const chosen = await shopProject(env, { gatehouseUrl: t.base, shopUrl, file: path, adminToken: () => { throw new Error('the admin token was read'); } });
    expect(chosen).toEqual({ projectId: project.id, serviceKey: { clientId: key.client_id, clientSecret: key.client_secret }, source: 'environment' });
    expect(await projectCount()).toBe(before);
    expect(existsSync(path)).toBe(false);
    // The key works: it buys an access token for the exchanges.
    const token = await fetch(`${t.base}/auth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${key.client_id}:${key.client_secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(token.status).toBe(200);
  });

  it('refuses part of the three variables, naming the missing ones', async () => {
    const options = { gatehouseUrl: t.base, shopUrl, file: file(), adminToken: () => t.adminToken };
    await expect(shopProject({ GATEHOUSE_PROJECT_ID: 'proj_x' }, options)).rejects.toThrow(/^GATEHOUSE_KEY_ID and GATEHOUSE_KEY_SECRET missing: set all of/);
  });

  it('without them creates its own project once, with the callback allowed, and reuses it', async () => {
    const before = await projectCount();
    const options = { gatehouseUrl: t.base, shopUrl, file: file(), adminToken: () => t.adminToken };
    const own = await shopProject({}, options);
    expect(own.source).toBe('own');
    expect(await projectCount()).toBe(before + 1);
    const settings = await t.app.inject({ method: 'GET', url: `/projects/${own.projectId}/flow_settings`, headers: { authorization: `Bearer ${t.adminToken}` } });
    expect(settings.json().redirect_uris).toEqual([`${shopUrl}/auth/callback`]);
    expect((await shopProject({}, options)).projectId).toBe(own.projectId);
    expect(await projectCount()).toBe(before + 1);
  });
});
