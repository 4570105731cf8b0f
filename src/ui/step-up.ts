import type { FastifyReply } from 'fastify';
import type { Config } from '../config.js';
import { issuerOf } from '../oauth/discovery.js';
import type { SchemaService } from '../schemas/service.js';
import { levelsAfterExchange, type HandoffLevelsDeps } from '../sessions/handoff-levels.js';
import type { UiAssets } from './assets.js';
import { pageUrl } from './entry.js';
import { sendMessage, type PageContext } from './pages.js';

/**
 * Step-up on the hosted pages (`?aal=`), once the flow completed: when the proof given still falls
 * short of the asked level, the page says what would do instead of returning to an app that sends
 * the browser straight back (the silent loop of issue 39). How the steps look: step-up-view.ts.
 */

/** `done` of the page that says a completed step-up still falls short. */
export const TOO_WEAK = 'too_weak';

const LEVEL_URN = (aal: string) => `urn:nist:aal:${aal}`;

/**
 * True when the completed flow's handoff would leave the session without the asked level. Read
 * from the attempt behind the token and the session it names, never from the browser.
 */
export async function fallsShort(deps: HandoffLevelsDeps, projectId: string, handoffToken: string, aal: string): Promise<boolean> {
  const levels = await levelsAfterExchange(deps, projectId, handoffToken);
  return levels !== undefined && !levels.includes(LEVEL_URN(aal));
}

/** What `sendTooWeak` reads: the project's default user schema (its enabled methods) and the public URL. */
export interface TooWeakDeps {
  schemas: Pick<SchemaService, 'defaultFor'>;
  config: Pick<Config, 'publicUrl'>;
}

/** Which of the methods that reach AAL2 the project enables (`x-auth-methods` of its default schema). */
async function strongMethods(deps: TooWeakDeps, projectId: string): Promise<{ passkey: boolean; totp: boolean }> {
  const schema = await deps.schemas.defaultFor(projectId);
  const methods = (schema?.document['x-auth-methods'] ?? {}) as Record<string, { enabled?: unknown } | undefined>;
  const enabled = (name: string) => methods[name]?.enabled === true;
  return { passkey: enabled('passkey'), totp: enabled('totp') };
}

/**
 * The page after a step-up that fell short: which methods would do and the way to add one (the
 * settings page, on the configured public URL: nothing in the request chooses where it points).
 */
export async function sendTooWeak(deps: TooWeakDeps, reply: FastifyReply, ctx: PageContext, assets: UiAssets): Promise<FastifyReply> {
  const { entry } = ctx;
  const { passkey, totp } = entry.project_id ? await strongMethods(deps, entry.project_id) : { passkey: false, totp: false };
  const textKey = passkey && totp ? 'ui.step_up.short.passkey_totp' : passkey ? 'ui.step_up.short.passkey' : totp ? 'ui.step_up.short.totp' : 'ui.step_up.short.none';
  const links: Array<{ href: string; key: string }> = [];
  if (passkey || totp) {
    const settings = pageUrl('settings', { project_id: entry.project_id, lang: entry.lang }, {}, ctx.explicitLang);
    links.push({ href: `${new URL(issuerOf(deps.config)).origin}${settings}`, key: 'ui.manage_account' });
  }
  links.push({ href: pageUrl(ctx.page, entry, { flow: undefined, done: undefined }, ctx.explicitLang), key: 'ui.step_up.try_again' });
  return sendMessage(reply, ctx, assets, 200, { titleKey: 'ui.step_up.short.title', textKey, links, alert: true });
}
