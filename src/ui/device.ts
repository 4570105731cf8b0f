import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import { cookieOptions, cookieValue, setCookieUntil } from '../http/cookies.js';
import { assertSameOrigin } from '../http/csrf.js';
import { askedAal } from '../oauth/authorize.js';
import type { DeviceCodeRow } from '../oauth/device/store.js';
import { issuerOf } from '../oauth/discovery.js';
import type { OAuthPlane } from '../oauth/plane.js';
import { SESSION_COOKIE } from '../sessions/cookie.js';
import type { ExchangeService } from '../sessions/service.exchange.js';
import type { SessionService } from '../sessions/service.js';
import type { Session } from '../sessions/view.js';
import type { UiAssets } from './assets.js';
import { codeFormMarkup, consentMarkup } from './device-view.js';
import { langExplicit, pageUrl, readEntry } from './entry.js';
import { pageContext, sendMessage, sendPage, type PageContext, type PageContextDeps } from './pages.js';

export interface DeviceRouteDeps extends PageContextDeps {
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
  oauth: OAuthPlane;
  sessions: SessionService;
  exchange: ExchangeService;
}

/** Binds the device request a person typed the code of to this browser (and names it): only this browser answers it. */
export const DEVICE_COOKIE = '__gh_device';
const COOKIE_PATH = '/ui/device';
export const DEVICE_RESUME_PATH = '/ui/device/resume';

/** One form or query value, never overlong. */
function valueOf(source: unknown, name: string, max = 100): string | undefined {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value.length <= max ? value : undefined;
}

const formOf = (body: unknown) => (typeof body === 'string' ? Object.fromEntries(new URLSearchParams(body.slice(0, 4096))) : {});

/**
 * The verification page of the device authorization grant (RFC 8628 §3.3, DESIGN §4.19,
 * docs/oauth.md "Device authorization grant"), without JavaScript:
 * - `GET /ui/device[?user_code=]`: the code form (prefilled from `verification_uri_complete`).
 * - `POST /ui/device`: looks the code up under the IP's wrong-code budget; a hit binds the request
 *   to this browser (`__gh_device`) and goes on to the consent.
 * - `GET /ui/device/confirm`: without a fitting session, the project's login flow (the hosted
 *   login page, returning to `/ui/device/resume` as /auth/authorize's login returns to its resume
 *   endpoint; a session short of the client's `acr_values` is stepped up); else the consent.
 * - `POST /ui/device/confirm` (same origin): approve or deny.
 */
export function deviceRoutes(app: FastifyInstance, deps: DeviceRouteDeps, assets: UiAssets): void {
  const config = { page: true, tenancy: 'credential' } as const;
  const { device } = deps.oauth;
  const issuer = () => issuerOf(deps.config);

  const contextOf = (request: FastifyRequest, page: string, projectId?: string): Promise<PageContext> => {
    // Only the language and the project (for branding) come from the query; the rest is the device page's own.
    const query = (request.query ?? {}) as Record<string, unknown>;
    const entry = readEntry({ lang: query.lang, project_id: query.project_id }, request.headers['accept-language'] as string | undefined, issuer());
    return pageContext(deps, page, { lang: entry.lang, project_id: projectId ?? entry.project_id }, langExplicit(request));
  };
  const codePage = (ctx: PageContext) => pageUrl('device', { project_id: ctx.entry.project_id, lang: ctx.entry.lang }, {}, ctx.explicitLang);
  const confirmPage = (ctx: PageContext) => pageUrl('device/confirm', { lang: ctx.entry.lang }, {}, ctx.explicitLang);

  const bound = async (request: FastifyRequest): Promise<DeviceCodeRow & { client_name: string } | undefined> => {
    const id = cookieValue(request, DEVICE_COOKIE);
    return id ? device.pending(id) : undefined;
  };
  const unbind = (request: FastifyRequest, reply: FastifyReply) => reply.setCookie(DEVICE_COOKIE, '', { ...cookieOptions(request, 0), path: COOKIE_PATH });

  /** The browser's signed-in session in the request's project, as the consent needs it (levels, e-mail). */
  const sessionOf = async (request: FastifyRequest, projectId: string): Promise<Session | undefined> => {
    const token = cookieValue(request, SESSION_COOKIE);
    const row = token && token.length <= 512 ? await deps.sessions.rowForToken(token) : undefined;
    if (!row || row.project_id !== projectId || row.state !== 'active' || !row.user_id) return undefined;
    return deps.sessions.get(projectId, row.id).catch(() => undefined);
  };

  const gone = (reply: FastifyReply, ctx: PageContext, textKey = 'ui.device.gone', status = 410) =>
    sendMessage(reply, ctx, assets, status, { titleKey: 'ui.device.title', textKey, alert: true, links: [{ href: codePage(ctx), key: 'ui.device.start_again' }] });

  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');

  app.get('/ui/device', { config }, async (request, reply) => {
    const ctx = await contextOf(request, 'device');
    const prefilled = valueOf(request.query, 'user_code', 20) ?? '';
    return sendPage(reply, ctx, assets, 200, ctx.t('ui.device.title'), codeFormMarkup(ctx.t, codePage(ctx), prefilled, false));
  });

  app.post('/ui/device', { config }, async (request, reply) => {
    const ctx = await contextOf(request, 'device');
    assertSameOrigin(request, { publicUrl: deps.config.publicUrl });
    const typed = valueOf(formOf(request.body), 'user_code', 64) ?? '';
    const found = await device.lookup(typed, request.ip);
    if (found.kind === 'spent') {
      const seconds = found.retryAfterSeconds;
      throw new AppError('auth.rate_limited', 'Too many wrong codes from this address; try again later.', { retry_after_seconds: seconds }, { 'retry-after': String(seconds) });
    }
    if (found.kind === 'wrong') return sendPage(reply, ctx, assets, 400, ctx.t('ui.device.title'), codeFormMarkup(ctx.t, codePage(ctx), typed.slice(0, 20), true));
    const row = await device.pending(found.id);
    if (!row) return gone(reply, ctx);
    // Until the request expires, and only for /ui/device/*.
    void reply.setCookie(DEVICE_COOKIE, row.id, { ...cookieOptions(request, (row.expires_at.getTime() - deps.clock.now().getTime()) / 1000), path: COOKIE_PATH });
    return noStore(reply).redirect(confirmPage(ctx), 303);
  });

  app.get('/ui/device/confirm', { config, exposeHeadRoute: false }, async (request, reply) => {
    const row = await bound(request);
    if (!row) return gone(noStore(reply), await contextOf(request, 'device'));
    const ctx = await contextOf(request, 'device/confirm', row.project_id);
    const session = valueOf(request.query, 'account') === 'other' ? undefined : await sessionOf(request, row.project_id);
    if (!session || !device.sessionFits(row, session)) {
      // The project's login flow, as /auth/authorize sends it: a session short of acr_values is stepped up, not replaced.
      const login = pageUrl('login', {
        project_id: row.project_id,
        lang: ctx.entry.lang,
        authorization_id: row.id,
        resume_uri: `${issuer()}${DEVICE_RESUME_PATH}`,
        session_id: session?.session_id,
        aal: session ? askedAal(session.assurance_levels, row.acr_values ?? undefined) : undefined,
      }, {}, ctx.explicitLang);
      return noStore(reply).redirect(login, 303);
    }
    const content = consentMarkup(ctx.t, {
      requestId: row.id,
      clientName: row.client_name,
      requestedAt: row.created_at,
      scopes: row.scopes,
      account: session.email ?? session.name ?? session.user_id ?? '',
      lang: ctx.entry.lang,
      action: confirmPage(ctx),
      otherAccount: `${confirmPage(ctx)}${confirmPage(ctx).includes('?') ? '&' : '?'}account=other`,
    });
    return sendPage(reply, ctx, assets, 200, ctx.t('ui.device.confirm.title'), content);
  });

  // Back from the login flow (finish() in complete.ts sends the handoff token here, as to /auth/authorize/resume).
  app.get(DEVICE_RESUME_PATH, { config, exposeHeadRoute: false }, async (request, reply) => {
    noStore(reply);
    const row = await bound(request);
    if (!row || row.id !== valueOf(request.query, 'authorization_id')) return gone(reply, await contextOf(request, 'device'));
    const ctx = await contextOf(request, 'device', row.project_id);
    const handoff = valueOf(request.query, 'handoff_token', 512);
    if (!handoff) return gone(reply, ctx, 'ui.device.sign_in_failed', 400);
    let issued;
    try {
      issued = await deps.exchange.exchange(row.project_id, { handoffToken: handoff });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      return gone(reply, ctx, 'ui.device.sign_in_failed', 400);
    }
    setCookieUntil(request, reply, SESSION_COOKIE, issued.session_token, deps.clock.now(), issued.expiresAt);
    return reply.redirect(confirmPage(ctx), 303);
  });

  app.post('/ui/device/confirm', { config }, async (request, reply) => {
    assertSameOrigin(request, { publicUrl: deps.config.publicUrl });
    noStore(reply);
    const form = formOf(request.body);
    const row = await bound(request);
    // The form answers the request it showed: another code typed in another tab since then is not answered by it.
    if (!row || row.id !== form.request) return gone(reply, await contextOf(request, 'device'));
    const ctx = await contextOf(request, 'device', row.project_id);
    if (form.decision === 'deny') {
      if (!(await device.deny(row))) return gone(reply, ctx);
      unbind(request, reply);
      return sendMessage(reply, ctx, assets, 200, { titleKey: 'ui.device.denied.title', textKey: 'ui.device.denied.description' });
    }
    if (form.decision !== 'approve') throw new AppError('req.invalid', 'The decision is missing.', { errors: [{ path: 'body/decision', message: 'must be approve or deny' }] });
    const session = await sessionOf(request, row.project_id);
    const approved = session ? await device.approve(row, session) : 'too_weak';
    // Signed out or weakened since the consent was shown: sign in (or step up) again.
    if (approved === 'too_weak') return reply.redirect(confirmPage(ctx), 303);
    if (approved === 'gone') return gone(reply, ctx);
    unbind(request, reply);
    return sendMessage(reply, ctx, assets, 200, { titleKey: 'ui.device.approved.title', textKey: 'ui.device.approved.description' });
  });
}
