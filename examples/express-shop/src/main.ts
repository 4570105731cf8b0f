import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureProject } from './setup.js';
import { createShop } from './shop.js';

const gatehouseUrl = process.env.GATEHOUSE_URL ?? 'http://localhost:8080';
const port = Number(process.env.PORT ?? 3000);
const shopUrl = process.env.SHOP_URL ?? `http://localhost:${port}`;
// The admin token Gatehouse wrote on its first `npm start` in the repository root.
const adminToken = process.env.GATEHOUSE_ADMIN_TOKEN ?? readFileSync(fileURLToPath(new URL('../../../.gatehouse/admin-token', import.meta.url)), 'utf8').trim();

const project = await ensureProject({ gatehouseUrl, shopUrl, adminToken, file: fileURLToPath(new URL('../.shop.json', import.meta.url)) });
createShop({ gatehouseUrl, shopUrl, ...project }).listen(port, () => {
  console.log(`Express shop on ${shopUrl} (Gatehouse ${gatehouseUrl}, project ${project.projectId})`);
});
