import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { launch, startServer } from '../../../test/browser/harness.js';
import type { TestApp } from '../../../test/helpers/app.js';
import { ensureProject } from './setup.js';
import { createShop } from './shop.js';

/** A real Gatehouse and the shop beside it, both on `localhost` (passkeys refuse IP addresses), and Chromium. */
export interface ShopKit {
  t: TestApp;
  gatehouseUrl: string;
  shopUrl: string;
  browser: Browser;
  /** a browser context closed with the kit */
  newContext(options: BrowserContextOptions): Promise<BrowserContext>;
  close(): Promise<void>;
}

export async function shopKit(): Promise<ShopKit> {
  const started = await startServer({}, { publicHost: 'localhost' });
  const t = started.t;
  const gatehouseUrl = started.base.replace('127.0.0.1', 'localhost');
  const shop: Server = createServer();
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  const shopUrl = `http://localhost:${(shop.address() as AddressInfo).port}`;
  const file = join(mkdtempSync(join(tmpdir(), 'shop-')), '.shop.json');
  const project = await ensureProject({ gatehouseUrl, shopUrl, adminToken: t.adminToken, file });
  // No session cache: tests move Gatehouse's clock, and the shop must see a level decay at once.
  shop.on('request', createShop({ gatehouseUrl, shopUrl, ...project, sessionCacheMs: 0 }));
  const browser = await launch();
  const contexts: BrowserContext[] = [];
  return {
    t,
    gatehouseUrl,
    shopUrl,
    browser,
    async newContext(options) {
      const context = await browser.newContext(options);
      contexts.push(context);
      return context;
    },
    async close() {
      for (const context of contexts) await context.close();
      await browser.close();
      shop.close();
      await t.close();
    },
  };
}
