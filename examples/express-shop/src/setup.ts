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
      body: { name: 'express-shop', scopes: ['session.read', 'session.write', 'session.delete', 'user.read', 'user.write'] },
    }),
  );
  const saved: ShopProject = { projectId: project.id, serviceKey: { clientId: key.client_id, clientSecret: key.client_secret } };
  writeFileSync(options.file, JSON.stringify(saved, null, 2), { mode: 0o600 });
  return saved;
}
