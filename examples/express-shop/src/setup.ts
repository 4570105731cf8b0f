import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createGatehouseClient } from '@gatehouse/client';

export interface ShopProject {
  projectId: string;
  serviceKey: { clientId: string; clientSecret: string };
}

/**
 * The shop's project in Gatehouse, made once with the instance admin token: a project, the
 * callback in its redirect allow-list, and a service key for exchanges and user updates. Kept in
 * `file` (mode 0600) so that later starts reuse it.
 */
export async function ensureProject(options: { gatehouseUrl: string; shopUrl: string; adminToken: string; file: string }): Promise<ShopProject> {
  if (existsSync(options.file)) return JSON.parse(readFileSync(options.file, 'utf8')) as ShopProject;
  const admin = createGatehouseClient({ baseUrl: options.gatehouseUrl, token: options.adminToken });
  const project = await admin.call(admin.api.POST('/projects', { body: { name: 'Express shop' } }));
  const owner = createGatehouseClient({ baseUrl: options.gatehouseUrl, token: project.project_secret });
  await owner.call(owner.api.PUT('/projects/{project_id}/flow_settings', { params: { path: { project_id: project.id } }, body: { redirect_uris: [`${options.shopUrl}/auth/callback`] } }));
  const key = await owner.call(
    owner.api.POST('/projects/{project_id}/service_keys', {
      params: { path: { project_id: project.id } },
      body: { name: 'express-shop', scopes: [...SHOP_SCOPES] },
    }),
  );
  const saved: ShopProject = { projectId: project.id, serviceKey: { clientId: key.client_id, clientSecret: key.client_secret } };
  writeFileSync(options.file, JSON.stringify(saved, null, 2), { mode: 0o600 });
  return saved;
}

/** The scopes the shop's service key needs: exchanges and sign-out (session.*), the account page and "change e-mail" (user.*). */
export const SHOP_SCOPES = ['session.read', 'session.write', 'session.delete', 'user.read', 'user.write'] as const;

/**
 * The project the shop runs in: the one the environment names (`GATEHOUSE_PROJECT_ID` with a
 * service key, `GATEHOUSE_KEY_ID` and `GATEHOUSE_KEY_SECRET`), else its own, made once with the
 * admin token (`ensureProject`; `adminToken` is read only then). Some of the three but not all
 * is a mistake, said at once rather than guessed.
 */
export async function shopProject(
  env: Record<string, string | undefined>,
  options: { gatehouseUrl: string; shopUrl: string; adminToken: () => string; file: string },
): Promise<ShopProject & { source: 'environment' | 'own' }> {
  const names = ['GATEHOUSE_PROJECT_ID', 'GATEHOUSE_KEY_ID', 'GATEHOUSE_KEY_SECRET'] as const;
  const given = names.filter((name) => env[name]);
  if (given.length === names.length) {
    return { projectId: env.GATEHOUSE_PROJECT_ID!, serviceKey: { clientId: env.GATEHOUSE_KEY_ID!, clientSecret: env.GATEHOUSE_KEY_SECRET! }, source: 'environment' };
  }
  if (given.length > 0) {
    const missing = names.filter((name) => !env[name]);
    throw new Error(`${missing.join(' and ')} missing: set all of ${names.join(', ')} to use your project, or none to let the shop create its own`);
  }
  const own = await ensureProject({ gatehouseUrl: options.gatehouseUrl, shopUrl: options.shopUrl, adminToken: options.adminToken(), file: options.file });
  return { ...own, source: 'own' };
}

