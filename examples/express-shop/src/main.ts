import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { shopProject } from './setup.js';
import { createShop } from './shop.js';

const gatehouseUrl = process.env.GATEHOUSE_URL ?? 'http://localhost:8080';
const port = Number(process.env.PORT ?? 3000);
const shopUrl = process.env.SHOP_URL ?? `http://localhost:${port}`;
// Your project from the environment, or the shop's own: made once with the admin token Gatehouse
// wrote on its first `npm start` in the repository root.
const adminToken = () => process.env.GATEHOUSE_ADMIN_TOKEN ?? readFileSync(fileURLToPath(new URL('../../../.gatehouse/admin-token', import.meta.url)), 'utf8').trim();
const file = fileURLToPath(new URL('../.shop.json', import.meta.url));

const project = await shopProject(process.env, { gatehouseUrl, shopUrl, adminToken, file });
createShop({ gatehouseUrl, shopUrl, projectId: project.projectId, serviceKey: project.serviceKey, webhookSecret: process.env.GATEHOUSE_WEBHOOK_SECRET }).listen(port, () => {
  const from = project.source === 'environment' ? 'from GATEHOUSE_PROJECT_ID' : `its own, kept in ${file}`;
  console.log(`Express shop on ${shopUrl} (Gatehouse ${gatehouseUrl}, project ${project.projectId}, ${from})`);
});
