import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import { FLOW_COOKIE } from '../flows/cookie.js';
import { FLOW_TTL_MS } from '../flows/state.js';
import type { FlowRuntime } from '../flows/runtime/engine.js';
import type { FlowResult, RequestContext } from '../flows/runtime/types.js';
import type { FlowSettingsService } from '../flows/settings/service.js';
import type { FlowResponse, SubmitInput } from '../flows/view.js';
import { clearCookie, cookieValue, setCookieUntil } from '../http/cookies.js';
import { afterAnswerOf } from '../http/after-answer.js';
import { assertSameOrigin } from '../http/csrf.js';
import { issuerOf } from '../oauth/discovery.js';
import type { ProjectService } from '../projects/service.js';
import { SESSION_COOKIE } from '../sessions/cookie.js';
import type { SessionService } from '../sessions/service.js';
import { loadAssets } from './assets.js';
import { finish, sendDone, type FinishDeps } from './complete.js';
import { deviceRoutes, type DeviceRouteDeps } from './device.js';
import { logoutRoutes, type LogoutRouteDeps } from './logout.js';
import { recoverRoutes, type RecoverRouteDeps } from './recover.js';
import { FLOW_PAGES, langExplicit, pageUrl, readEntry } from './entry.js';
import { beforeSubmit, finishedRecovery, readFlow, refusedRedirect } from './flow-read.js';
import { readForm, type FormInput } from './form.js';
import { describeError, fallbackContext, pageContext, sendError, sendMessage, sendStep, type PageContext } from './pages.js';
import type { StepExtras } from './step.js';
import { sendTooWeak, TOO_WEAK, type TooWeakDeps } from './step-up.js';

export interface UiRouteDeps extends FinishDeps, TooWeakDeps, LogoutRouteDeps, RecoverRouteDeps, DeviceRouteDeps {
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
  flows: RecoverRouteDeps['flows'] & { runtime: FlowRuntime; settings: FlowSettingsService };
  projects: ProjectService;
  sessions: SessionService;
}

/** Form posts are small: a few fields, a captcha proof, a WebAuthn answer. */
const FORM_LIMIT = 64 * 1024;

/** The runtime's request context (+ `origin`, which passkeys derive the relying party from). */
function contextOf(request: FastifyRequest, issuer: string, reply?: FastifyReply): RequestContext {
  const ua = request.headers['user-agent'];
  const origin = request.headers.origin;
  const own = new URL(issuer).origin;
  return {
    ip: request.ip,
    userAgent: typeof ua === 'string' ? ua : undefined,
    cookie: cookieValue(request, FLOW_COOKIE),
    // The signed-in session's token: a settings flow starts only for the session whose token the caller holds.
    sessionToken: cookieValue(request, SESSION_COOKIE),
    // A page is always shown on Gatehouse's own origin: a GET navigation carries no Origin header,
    // and a form post sends `Origin: null` under the pages' `Referrer-Policy: no-referrer` (posts
    // pass the same-origin check first; the ceremony itself proves the origin in clientDataJSON).
    origin: typeof origin === 'string' && origin !== 'null' ? origin : own,
    acceptLanguage: typeof request.headers['accept-language'] === 'string' ? request.headers['accept-language'] : undefined,
    afterAnswer: reply ? afterAnswerOf(reply) : undefined,
  };
}

/**
 * The hosted UI (DESIGN §4.15): server-rendered pages over the flow runtime's public surface.
 * Every route is declared `config.page` (HTML, left out of /openapi.json; the catalog tests know it).
 * Errors of these routes, including the framework's (body too large, wrong content type), are pages.
 */
export function uiRoutes(root: FastifyInstance, deps: UiRouteDeps): void {
  const assets = loadAssets();
  const { runtime } = deps.flows;
  // Pages act for the project their flow or query names, as the browser plane does.
  const config = { page: true, tenancy: 'credential' } as const;

  void root.register(async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_request, body, done) => done(null, body));

    const contexts = new WeakMap<FastifyRequest, PageContext>();
    const contextFor = async (request: FastifyRequest, page: string): Promise<PageContext> => {
      let ctx = contexts.get(request);
      if (!ctx) {
        const entry = readEntry(request.query, request.headers['accept-language'] as string | undefined, issuerOf(deps.config));
        ctx = await pageContext(deps, page, entry, langExplicit(request));
        contexts.set(request, ctx);
      }
      return ctx;
    };

    app.setErrorHandler(async (error, request, reply) => {
      const page = /^\/ui\/(\w+)/.exec(request.url)?.[1] ?? 'error';
      const described = describeError(error);
      if (described.status >= 500) request.log.error({ err: error, request_id: request.id }, 'ui page failed');
      // Say which return address was refused and what to change (the page says it too).
      if (described.key === 'ui.error.redirect_not_allowed') request.log.warn({ refused_redirect_uri: refusedRedirect(request), setting: 'flow_settings.redirect_uris' }, 'redirect_uri refused: it is not in the project\'s flow_settings.redirect_uris');
      let ctx = contexts.get(request);
      if (!ctx) {
        // The query itself may be what failed (render with defaults), or loading the project's
        // branding did (the database is gone: the built-in look, in the language asked for).
        let entry: PageContext['entry'] = { lang: 'en' };
        let explicit = false;
        try {
          entry = readEntry(request.query, request.headers['accept-language'] as string | undefined, issuerOf(deps.config));
          explicit = langExplicit(request);
        } catch {}
        ctx = await pageContext(deps, page, entry, explicit).catch(() => fallbackContext(page, entry, explicit));
      }
      return sendError(reply, ctx, assets, error).catch(() => {
        // Not even the page could be rendered: a plain answer, with the same status and Retry-After.
        for (const [name, value] of Object.entries(described.headers)) if (name === 'retry-after') reply.header(name, value);
        const text = described.status === 503 ? 'Service temporarily unavailable' : 'Internal error';
        return reply.status(described.status === 503 ? 503 : 500).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(text);
      });
    });

    const setFlowCookie = (request: FastifyRequest, reply: FastifyReply, cookie: string | null) => {
      const now = deps.clock.now();
      if (cookie === null) clearCookie(request, reply, FLOW_COOKIE);
      else setCookieUntil(request, reply, FLOW_COOKIE, cookie, now, new Date(now.getTime() + FLOW_TTL_MS));
    };

    const sessionRow = async (request: FastifyRequest, projectId: string) => {
      const token = cookieValue(request, SESSION_COOKIE);
      const row = token && token.length <= 512 ? await deps.sessions.rowForToken(token) : undefined;
      return row && row.project_id === projectId && row.state === 'active' && row.user_id ? row : undefined;
    };

    /**
     * After a start or a submit: finish a completed flow, show a challenge at once, or redirect to
     * the step (PRG). `notice` is the note the next page shows (only the page right after a recovery).
     */
    const advance = async (request: FastifyRequest, reply: FastifyReply, ctx: PageContext, result: FlowResult, next: { purpose?: string; notice?: string } = {}) => {
      setFlowCookie(request, reply, result.cookie);
      const body: FlowResponse = result.body;
      if (body.step.type === 'complete') return finish(deps, request, reply, ctx, body, next.notice);
      const now = deps.clock.now();
      for (const side of result.setCookies ?? []) setCookieUntil(request, reply, side.name, side.value, now, new Date(now.getTime() + side.maxAgeMs));
      // A step that sends the browser elsewhere (an SSO button: on to the provider).
      if (body.redirect_uri !== undefined) return reply.header('cache-control', 'no-store').redirect(body.redirect_uri, 303);
      const { challenge, recovery_codes: codes } = body.step as StepExtras;
      // The browser must run this ceremony now; a redirect would render a different challenge.
      if (challenge && challenge.mediation !== 'conditional') return sendStep(reply, ctx, assets, 200, { body, purpose: next.purpose });
      // New recovery codes exist in this answer only (shown once): a redirect would lose them.
      if (Array.isArray(codes)) return sendStep(reply, ctx, assets, 200, { body, purpose: next.purpose });
      return reply.header('cache-control', 'no-store').redirect(pageUrl(ctx.page, ctx.entry, { flow: body.id, done: undefined, notice: next.notice }, ctx.explicitLang), 303);
    };

    for (const page of FLOW_PAGES) {
      // HEAD must not start flows (each start creates an anonymous session).
      app.get(`/ui/${page}`, { config, exposeHeadRoute: false }, async (request, reply) => {
        const ctx = await contextFor(request, page);
        const { entry } = ctx;
        const issuer = issuerOf(deps.config);
        if (!entry.project_id) throw new AppError('req.invalid', 'The project is missing.', { errors: [{ path: 'querystring/project_id', message: 'is required' }] });
        if (!(await deps.projects.row(entry.project_id))) throw new AppError('proj.not_found', 'The project was not found.');
        if (entry.done === TOO_WEAK) return sendTooWeak(deps, reply, ctx, assets);
        if (entry.done) return sendDone(reply, ctx, assets, await sessionRow(request, entry.project_id));
        let sessionId: string | undefined;
        if (page === 'settings') {
          const session = await sessionRow(request, entry.project_id);
          if (!session) {
            const login = pageUrl('login', { project_id: entry.project_id, lang: entry.lang }, {}, ctx.explicitLang);
            return sendMessage(reply, ctx, assets, 401, { titleKey: 'ui.error.title', textKey: 'ui.settings.sign_in_first', links: [{ href: login, key: 'action.sign_in' }], alert: true });
          }
          sessionId = session.id;
        }
        const flowCtx = contextOf(request, issuer);
        if (entry.flow) {
          // Back from an SSO provider that completed the flow, this is its answer (once).
          const { result, purpose } = await readFlow(runtime, entry.flow, flowCtx, entry.project_id);
          if (result.body.step.type === 'complete') return advance(request, reply, ctx, result);
          setFlowCookie(request, reply, result.cookie);
          return sendStep(reply, ctx, assets, 200, { body: result.body, purpose });
        }
        const purpose = entry.purpose ?? page;
        try {
          // An app steps its session up by naming it (the exchange then merges the new factors into it, same user only).
          const result = await runtime.start({ project_id: entry.project_id, purpose, app_id: entry.app_id, redirect_uri: entry.redirect_uri, session_id: sessionId ?? entry.session_id }, flowCtx);
          return advance(request, reply, ctx, result, { notice: entry.notice });
        } catch (error) {
          const paths = error instanceof AppError ? ((error.details.errors as Array<{ path?: string }> | undefined) ?? []).map((e) => e.path) : [];
          if (page === 'settings' && paths.includes('body/purpose')) {
            return sendMessage(reply, ctx, assets, 404, { titleKey: 'ui.error.title', textKey: 'ui.settings.unavailable' });
          }
          throw error;
        }
      });

      app.post(`/ui/${page}`, { config }, async (request, reply) => {
        const ctx = await contextFor(request, page);
        const { entry } = ctx;
        if (!entry.project_id || !entry.flow) throw new AppError('flow.not_found', 'The flow is missing.', {});
        const form: FormInput = readForm(request.body);
        const flowCtx = contextOf(request, issuerOf(deps.config), reply);
        const run = await runtime.open(entry.flow, flowCtx, entry.project_id);
        const project = await deps.projects.row(run.projectId);
        assertSameOrigin(request, { publicUrl: deps.config.publicUrl, allowedOrigins: project?.preview_origins ?? [] });
        const input: SubmitInput = { action: form.action, fields: form.fields };
        if (form.captcha !== undefined) input.captcha = form.captcha;
        if (form.challengeResponse !== undefined) input.challenge_response = form.challengeResponse;
        if (form.ssoProvider !== undefined) input.sso_provider_id = form.ssoProvider;
        // A provider (chosen, or the address's home realm) sends the browser back to this page, which shows where the flow went.
        input.return_to = `${new URL(issuerOf(deps.config)).origin}${pageUrl(ctx.page, entry, { flow: run.frame.id, done: undefined }, ctx.explicitLang)}`;
        const before = beforeSubmit(run);
        try {
          const result = await runtime.submit(run, input);
          return await advance(request, reply, ctx, result, { purpose: run.frame.pu, notice: finishedRecovery(before, run, result, form) ? 'password_changed' : undefined });
        } catch (error) {
          if (!(error instanceof AppError) || !['flow.validation_failed', 'flow.invalid_credentials', 'flow.code_exhausted'].includes(error.code)) throw error;
          return rejected(request, reply, ctx, error, form);
        }
      });
    }

    /** A refused submit: the same step again with the errors, 4xx, values kept (never secrets). */
    const rejected = async (request: FastifyRequest, reply: FastifyReply, ctx: PageContext, error: AppError, form: FormInput) => {
      const flowId = typeof error.details.flow_id === 'string' ? error.details.flow_id : ctx.entry.flow!;
      // A failed passkey answer carries a new cookie with a fresh challenge (DESIGN §4.10).
      const fresh = (error as AppError & { cookie?: unknown }).cookie;
      const flowCtx = contextOf(request, issuerOf(deps.config));
      if (typeof fresh === 'string') {
        flowCtx.cookie = fresh;
        setFlowCookie(request, reply, fresh);
      }
      const { result: current, purpose } = await readFlow(runtime, flowId, flowCtx, ctx.entry.project_id);
      const step = current.body.step as typeof current.body.step & StepExtras;
      if (error.details.challenge && typeof error.details.challenge === 'object') step.challenge = error.details.challenge as StepExtras['challenge'];
      // Re-rendering may issue a new autofill challenge: the page must carry the cookie that holds it.
      else if (current.cookie !== flowCtx.cookie) setFlowCookie(request, reply, current.cookie);
      const errors = (error.details.fields && typeof error.details.fields === 'object' ? error.details.fields : {}) as Record<string, string>;
      const known = new Set([...step.fields.map((f) => f.name), 'captcha']);
      const fieldErrors = Object.fromEntries(Object.entries(errors).filter(([name, key]) => known.has(name) && typeof key === 'string'));
      const others = Object.entries(errors).filter(([name]) => !known.has(name));
      const stepError = others.length > 0 ? String(others[0][1]) : Object.keys(fieldErrors).length === 0 ? `error.${error.code === 'flow.invalid_credentials' ? 'invalid_credentials' : 'invalid'}` : undefined;
      const secret = new Set(step.fields.filter((f) => f.type === 'password').map((f) => f.name));
      const values = Object.fromEntries(Object.entries(form.fields).filter(([name]) => !secret.has(name)));
      return sendStep(reply, ctx, assets, error.status, { body: { ...current.body, step }, errors: fieldErrors, error: stepError, values, purpose });
    };

    // Signing out of the hosted pages: the session the cookie names ends, the cookie goes (idempotent, like DELETE /sessions/me).
    app.post('/ui/logout', { config }, async (request, reply) => {
      const ctx = await contextFor(request, 'login');
      const token = cookieValue(request, SESSION_COOKIE);
      const projectId = token && token.length <= 512 ? await deps.sessions.projectOfToken(token) : undefined;
      const project = projectId ? await deps.projects.row(projectId) : undefined;
      assertSameOrigin(request, { publicUrl: deps.config.publicUrl, allowedOrigins: project?.preview_origins ?? [] });
      if (token && token.length <= 512) await deps.sessions.deleteByToken(token);
      clearCookie(request, reply, SESSION_COOKIE);
      const base = { project_id: ctx.entry.project_id ?? projectId, lang: ctx.entry.lang };
      return reply.header('cache-control', 'no-store').redirect(pageUrl('login', base, { done: 'signed_out' }, ctx.explicitLang), 303);
    });

    for (const page of ['link', 'error'] as const) {
      app.get(`/ui/${page}`, { config }, async (request, reply) => {
        const ctx = await contextFor(request, page);
        if (page === 'link') return sendMessage(reply, ctx, assets, 200, { titleKey: 'ui.link.title', textKey: 'ui.link.description' });
        const restart = ctx.entry.project_id ? [{ href: pageUrl('login', { project_id: ctx.entry.project_id, lang: ctx.entry.lang }, {}, ctx.explicitLang), key: 'ui.restart' }] : [];
        return sendMessage(reply, ctx, assets, 200, { titleKey: 'ui.error.title', textKey: 'ui.error.invalid_request', links: restart, alert: true });
      });
    }

    logoutRoutes(app, deps, assets);
    recoverRoutes(app, deps, assets);
    deviceRoutes(app, deps, assets);

    app.get('/ui/assets/:name', { config: { page: true, tenancy: 'public' } }, async (request, reply) => {
      const name = (request.params as { name: string }).name;
      const asset = assets.byName.get(name);
      if (!asset) {
        return reply.status(404).header('cache-control', 'no-store').type('application/json; charset=utf-8').send({ code: 'asset.not_found', message: 'No such asset.', details: { name: name.slice(0, 100) } });
      }
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('cross-origin-resource-policy', 'same-origin')
        .type(asset.type)
        .send(asset.body);
    });
  });
}
