import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { createListeningTestApp, type TestApp } from '../helpers/app.js';

/** Debian's Chromium (apt-get install chromium); nothing downloads a browser. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/**
 * `describe` for browser suites: skipped with the reason when Chromium is missing, except under
 * CI=true where a missing browser is a failure. `GATEHOUSE_SKIP_BROWSER=1` skips them on purpose:
 * `.ci/run` sets it for its PostgreSQL pass, which would drive the same pages again (the pages call
 * the services the API tests run on both databases) at about 4-5 minutes of its time budget.
 */
export function describeBrowser(name: string, body: () => void): void {
  if (process.env.GATEHOUSE_SKIP_BROWSER === '1') {
    describe.skip(`${name} (skipped: GATEHOUSE_SKIP_BROWSER=1, as in the PostgreSQL pass of .ci/run)`, body);
    return;
  }
  if (hasChromium) {
    describe(name, body);
    return;
  }
  if (process.env.CI === 'true') {
    describe(name, () => it('needs Chromium at /usr/bin/chromium (CI=true)', () => expect(existsSync(CHROMIUM), `${CHROMIUM} is missing`).toBe(true)));
    return;
  }
  describe.skip(`${name} (skipped: ${CHROMIUM} is missing; apt-get install chromium)`, body);
}

export async function launch(): Promise<Browser> {
  // Playwright gives every launch a fresh temporary --user-data-dir of its own.
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** A Gatehouse listening on a real loopback port. */
export async function startServer(overrides: Partial<Config> = {}, options: { publicHost?: string } = {}): Promise<{ t: TestApp; base: string }> {
  const t = await createListeningTestApp(overrides, options);
  return { t, base: t.base };
}

export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };

/**
 * One browser for a test file, each page in a fresh profile (its own cookies), all closed by
 * `close`. `bypassCSP` lets axe-core be injected; the pages themselves never need it.
 */
export class BrowserPages {
  private readonly contexts: BrowserContext[] = [];

  private constructor(readonly browser: Browser) {}

  static async launch(): Promise<BrowserPages> {
    return new BrowserPages(await launch());
  }

  async newPage(options: BrowserContextOptions = {}): Promise<Page> {
    const context = await this.browser.newContext({ ...DESKTOP, bypassCSP: true, ...options });
    this.contexts.push(context);
    return context.newPage();
  }

  async close(): Promise<void> {
    for (const context of this.contexts) await context.close();
    await this.browser.close();
  }
}
export const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown }>;
}

/** axe-core on the current page (the context must have `bypassCSP: true` to inject it): serious and critical violations. */
export async function axeViolations(page: Page): Promise<Array<{ id: string; impact: string | null; help: string; targets: unknown[] }>> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = (await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations'] })).violations;
  })) as Violation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target) }));
}

export async function expectAccessible(page: Page): Promise<void> {
  expect(await axeViolations(page), `axe on ${page.url()}`).toEqual([]);
}
