import type { FastifyReply } from 'fastify';
import type { UiAssets } from './assets.js';
import { pageUrl } from './entry.js';
import { esc } from './html.js';
import { sendPage, type PageContext } from './pages.js';

/**
 * The page after a sign-in that no application asked for (no redirect_uri, no OIDC request):
 * it says so and what to do next, and offers the account menu (settings, sign out). Signing out
 * is a form post, never a link: a prefetch or a crawler must not trigger it.
 */
export function sendSignedIn(reply: FastifyReply, ctx: PageContext, assets: UiAssets): Promise<FastifyReply> {
  const { t } = ctx;
  const base = { project_id: ctx.entry.project_id, lang: ctx.entry.lang };
  const settings = pageUrl('settings', base, {}, ctx.explicitLang);
  const logout = pageUrl('logout', base, {}, ctx.explicitLang);
  const content =
    `<h1>${esc(t('ui.signed_in.title'))}</h1>` +
    `<p class="description">${esc(t('ui.signed_in.no_app'))}</p>` +
    `<p class="next">${esc(t('ui.signed_in.next'))}</p>` +
    `<nav class="account actions" aria-label="${esc(t('ui.account.menu'))}">` +
    `<a class="btn primary" href="${esc(settings)}">${esc(t('ui.manage_account'))}</a>` +
    `<form class="signout" method="post" action="${esc(logout)}"><button type="submit" class="btn secondary">${esc(t('ui.sign_out'))}</button></form>` +
    `</nav>`;
  return sendPage(reply, ctx, assets, 200, t('ui.signed_in.title'), content);
}
