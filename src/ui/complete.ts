import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { FlowResponse } from '../flows/view.js';
import { setCookieUntil } from '../http/cookies.js';
import { SESSION_COOKIE } from '../sessions/cookie.js';
import type { HandoffLevelsDeps } from '../sessions/handoff-levels.js';
import type { ExchangeService } from '../sessions/service.exchange.js';
import type { SessionRow } from '../sessions/store.js';
import type { UiAssets } from './assets.js';
import { pageUrl, signInUrl } from './entry.js';
import { sendMessage, type PageContext } from './pages.js';
import { sendSignedIn } from './signed-in.js';
import { fallsShort, TOO_WEAK } from './step-up.js';

export interface FinishDeps extends HandoffLevelsDeps {
  clock: Clock;
  exchange: ExchangeService;
}

function withParams(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value) url.searchParams.set(name, value);
  return url.toString();
}

/**
 * A flow reached its complete step (DESIGN §4.15), in this order:
 * - a step-up (`aal`) whose handoff would leave the session short of the level: a page that says what would do;
 * - started by /auth/authorize: back to its resume endpoint with the handoff token;
 * - started with a redirect_uri (already checked against the allow-list): there, with the token;
 * - otherwise Gatehouse exchanges the token itself, sets `__service_session` and shows a page;
 * - a recovery that set a new password (`notice`) and signed no one in: the sign-in page, which says so.
 * The handoff token appears only in the Location of this redirect, never in a page.
 */
export async function finish(deps: FinishDeps, request: FastifyRequest, reply: FastifyReply, ctx: PageContext, body: FlowResponse, notice?: string): Promise<FastifyReply> {
  const { entry } = ctx;
  const handoff = body.handoff_token;
  reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
  // A step-up whose proof still falls short would return to an app that sends the browser straight back: say so here instead.
  if (entry.aal && handoff && entry.project_id && (await fallsShort(deps, entry.project_id, handoff, entry.aal))) {
    return reply.redirect(pageUrl(ctx.page, entry, { flow: undefined, done: TOO_WEAK }, ctx.explicitLang), 303);
  }
  if (entry.authorization_id && entry.resume_uri) {
    // A language the page was asked for goes along (the device page shows its consent in it).
    return reply.redirect(withParams(entry.resume_uri, { authorization_id: entry.authorization_id, handoff_token: handoff, lang: ctx.explicitLang ? entry.lang : undefined }), 303);
  }
  if (body.redirect_uri) return reply.redirect(withParams(body.redirect_uri, { handoff_token: handoff }), 303);
  const base = { project_id: entry.project_id, lang: entry.lang };
  if (handoff && entry.project_id) {
    const issued = await deps.exchange.exchange(entry.project_id, { handoffToken: handoff });
    setCookieUntil(request, reply, SESSION_COOKIE, issued.session_token, deps.clock.now(), issued.expiresAt);
    return reply.redirect(pageUrl(ctx.page, base, { done: 'signed_in' }, ctx.explicitLang), 303);
  }
  if (notice) return reply.redirect(signInUrl(entry, ctx.explicitLang, notice), 303);
  // Leaving settings returns to the signed-in page (its session goes on), not to "you can now sign in".
  const done = ctx.page === 'settings' ? 'signed_in' : body.step.name;
  return reply.redirect(pageUrl(ctx.page, base, { done }, ctx.explicitLang), 303);
}

/** The page after a completion without a place to return to. */
export function sendDone(reply: FastifyReply, ctx: PageContext, assets: UiAssets, session: SessionRow | undefined): Promise<FastifyReply> {
  const login = pageUrl('login', { project_id: ctx.entry.project_id, lang: ctx.entry.lang }, {}, ctx.explicitLang);
  if (ctx.entry.done === 'signed_in') {
    if (session) return sendSignedIn(reply, ctx, assets);
    return sendMessage(reply, ctx, assets, 200, { titleKey: 'ui.error.title', textKey: 'ui.settings.sign_in_first', links: [{ href: login, key: 'action.sign_in' }] });
  }
  if (ctx.entry.done === 'signed_out') return sendMessage(reply, ctx, assets, 200, { titleKey: 'ui.signed_out.title', textKey: 'ui.signed_out.description', links: [{ href: login, key: 'action.sign_in' }] });
  const step = ctx.entry.done!;
  return sendMessage(reply, ctx, assets, 200, { titleKey: `step.${step}.title`, textKey: `step.${step}.description`, links: [{ href: login, key: 'ui.back_to_sign_in' }] });
}
