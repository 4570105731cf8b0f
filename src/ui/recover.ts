import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import type { RecoveryLinkService } from '../flows/recovery-links/service.js';
import { setCookieUntil } from '../http/cookies.js';
import { assertSameOrigin } from '../http/csrf.js';
import { issuerOf } from '../oauth/discovery.js';
import type { ProjectService } from '../projects/service.js';
import { SESSION_COOKIE } from '../sessions/cookie.js';
import type { ExchangeService } from '../sessions/service.exchange.js';
import type { UiAssets } from './assets.js';
import { langExplicit, pageUrl, readEntry } from './entry.js';
import { esc } from './html.js';
import { pageContext, sendMessage, sendPage, type PageContext, type PageContextDeps } from './pages.js';

export interface RecoverRouteDeps extends PageContextDeps {
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
  projects: ProjectService;
  exchange: ExchangeService;
  flows: PageContextDeps['flows'] & { recoveryLinks: RecoveryLinkService };
}

/** The token of the link; a repeated or overlong one is no token. */
function tokenOf(source: unknown): string {
  const value = (source as Record<string, unknown> | undefined)?.token;
  return typeof value === 'string' && value.length <= 200 ? value : '';
}

/**
 * `/ui/recover`: the page a recovery link an operator sent opens (docs/recovery-links.md).
 * - GET shows one button and takes nothing: mail scanners and link previews follow links, and
 *   must not spend the link or sign anyone in.
 * - POST (same origin) takes the link, signs the user in (`__service_session`, as a completed
 *   hosted flow does) and opens the settings page, where they set a new password.
 * A used, expired or unknown link is one page (410) that offers the self-service recovery.
 */
export function recoverRoutes(app: FastifyInstance, deps: RecoverRouteDeps, assets: UiAssets): void {
  const config = { page: true, tenancy: 'credential' } as const;
  const contextOf = (request: FastifyRequest) =>
    pageContext(deps, 'recover', readEntry(request.query, request.headers['accept-language'] as string | undefined, issuerOf(deps.config)), langExplicit(request));

  const gone = (reply: FastifyReply, ctx: PageContext) => {
    const base = { project_id: ctx.entry.project_id, lang: ctx.entry.lang };
    return sendMessage(reply, ctx, assets, 410, {
      titleKey: 'ui.recover.title',
      textKey: 'ui.recover.invalid',
      alert: true,
      links: [{ href: pageUrl('recovery', base, {}, ctx.explicitLang), key: 'ui.recover.reset_yourself' }],
    });
  };

  const projectOf = async (ctx: PageContext) => {
    if (!ctx.entry.project_id) throw new AppError('req.invalid', 'The project is missing.', { errors: [{ path: 'querystring/project_id', message: 'is required' }] });
    const project = await deps.projects.row(ctx.entry.project_id);
    if (!project) throw new AppError('proj.not_found', 'The project was not found.');
    return project;
  };

  app.get('/ui/recover', { config, exposeHeadRoute: false }, async (request, reply) => {
    const ctx = await contextOf(request);
    const project = await projectOf(ctx);
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    const token = tokenOf(request.query);
    if (!(await deps.flows.recoveryLinks.isLive(project.id, token))) return gone(reply, ctx);
    const action = pageUrl('recover', { project_id: project.id, lang: ctx.entry.lang }, {}, ctx.explicitLang);
    const content =
      `<h1>${esc(ctx.t('ui.recover.title'))}</h1><p class="description">${esc(ctx.t('ui.recover.description'))}</p>` +
      `<form method="post" action="${esc(action)}"><input type="hidden" name="token" value="${esc(token)}">` +
      `<div class="actions"><button type="submit" class="btn primary">${esc(ctx.t('ui.recover.continue'))}</button></div></form>`;
    return sendPage(reply, ctx, assets, 200, ctx.t('ui.recover.title'), content);
  });

  app.post('/ui/recover', { config }, async (request, reply) => {
    const ctx = await contextOf(request);
    const project = await projectOf(ctx);
    assertSameOrigin(request, { publicUrl: deps.config.publicUrl, allowedOrigins: project.preview_origins ?? [] });
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    const form = typeof request.body === 'string' ? Object.fromEntries(new URLSearchParams(request.body.slice(0, 4096))) : {};
    let handoff;
    try {
      handoff = await deps.flows.recoveryLinks.redeem(project.id, tokenOf(form));
    } catch (error) {
      if (error instanceof AppError && error.code === 'link.invalid') return gone(reply, ctx);
      throw error;
    }
    const issued = await deps.exchange.exchange(project.id, { handoffToken: handoff.handoff_token });
    setCookieUntil(request, reply, SESSION_COOKIE, issued.session_token, deps.clock.now(), issued.expiresAt);
    return reply.redirect(pageUrl('settings', { project_id: project.id, lang: ctx.entry.lang }, {}, ctx.explicitLang), 303);
  });
}
