import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { clearCookie, cookieValue } from '../http/cookies.js';
import { assertSameOrigin } from '../http/csrf.js';
import { issuerOf } from '../oauth/discovery.js';
import { oauthError } from '../oauth/errors.js';
import type { OAuthPlane } from '../oauth/plane.js';
import { SESSION_COOKIE } from '../sessions/cookie.js';
import type { UiAssets } from './assets.js';
import { esc } from './html.js';
import { pickLang } from './i18n.js';
import { pageContext, sendMessage, sendPage, type PageContextDeps } from './pages.js';

export interface LogoutRouteDeps extends PageContextDeps {
  config: Pick<Config, 'publicUrl'>;
  oauth: OAuthPlane;
}

/** One value per parameter (OIDC: a repeated one is an invalid request), never overlong. */
function paramsOf(raw: unknown): Record<string, string | undefined> {
  const params: Record<string, string | undefined> = Object.create(null);
  const entries = typeof raw === 'string' ? [...new URLSearchParams(raw)] : Object.entries((raw ?? {}) as Record<string, unknown>);
  for (const [name, value] of entries) {
    if (typeof value !== 'string' || Object.hasOwn(params, name)) throw oauthError('invalid_request', `The parameter "${name}" is repeated.`, { parameter: name });
    if (value.length > 4096) throw oauthError('invalid_request', `The parameter "${name}" is too long.`, { parameter: name });
    params[name] = value;
  }
  return params;
}

/**
 * The end_session_endpoint (OpenID Connect RP-Initiated Logout 1.0) at `/auth/logout`, GET and
 * POST. It lives with the hosted pages because it answers with pages: a confirmation when the
 * request carries no `id_token_hint`, and "signed out" when the client gave no place to return to.
 */
export function logoutRoutes(app: FastifyInstance, deps: LogoutRouteDeps, assets: UiAssets): void {
  const { logout } = deps.oauth;
  const config = { page: true, tenancy: 'credential' } as const;

  const handle = async (request: FastifyRequest, reply: FastifyReply, params: Record<string, string | undefined>, confirmed: boolean) => {
    const issuer = issuerOf(deps.config);
    const outcome = await logout.endSession(params, issuer, cookieValue(request, SESSION_COOKIE), confirmed);
    const lang = pickLang(params.ui_locales?.split(' ')[0], request.headers['accept-language'] as string | undefined);
    if (outcome.kind === 'confirm') {
      const ctx = await pageContext(deps, 'logout', { lang, project_id: outcome.projectId }, false);
      const hidden = Object.entries(outcome.params).map(([name, value]) => `<input type="hidden" name="${esc(name)}" value="${esc(value)}">`).join('');
      const content =
        `<h1>${esc(ctx.t('ui.logout.title'))}</h1><p class="description">${esc(ctx.t('ui.logout.description'))}</p>` +
        `<form method="post" action="/auth/logout">${hidden}<input type="hidden" name="confirm" value="yes"><div class="actions"><button type="submit" class="btn primary">${esc(ctx.t('ui.sign_out'))}</button></div></form>`;
      return sendPage(reply, ctx, assets, 200, ctx.t('ui.logout.title'), content);
    }
    clearCookie(request, reply, SESSION_COOKIE);
    if (outcome.kind === 'redirect') return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(outcome.location, confirmed ? 303 : 302);
    const ctx = await pageContext(deps, 'logout', { lang, project_id: outcome.projectId }, false);
    return sendMessage(reply, ctx, assets, 200, { titleKey: 'ui.signed_out.title', textKey: 'ui.signed_out.description' });
  };

  app.get('/auth/logout', { config, exposeHeadRoute: false }, (request, reply) => handle(request, reply, paramsOf(request.query), false));
  app.post('/auth/logout', { config }, async (request, reply) => {
    // Signing out from the confirmation page (or a client's form post): only from Gatehouse's own pages.
    assertSameOrigin(request, { publicUrl: deps.config.publicUrl });
    const params = paramsOf(request.body);
    // A form post with an id_token_hint needs no confirmation (the hint proves the client asks).
    return handle(request, reply, params, params.confirm === 'yes' || params.id_token_hint !== undefined);
  });
}
