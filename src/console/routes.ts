import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import { constantTimeEqual } from '../core/crypto.js';
import { AppError } from '../core/errors.js';
import type { KeyRing } from '../core/keys.js';
import { SealedBox } from '../core/sealed-box.js';
import { assertSameOrigin } from '../http/csrf.js';
import type { ConsoleAccess } from '../operators/console-access.js';
import { loadAssets } from '../ui/assets.js';
import { esc } from '../ui/html.js';
import { ApiRefusal, ConsoleApi, ConsoleSignInNeeded } from './api.js';
import { authorizeUrl, CodeRefused, CONSOLE_ACR, newLogin, redeemCode, refreshSession } from './oidc.js';
import { projectMarkup, projectsMarkup, type ProjectSummary } from './pages/projects.js';
import { consoleHref, consoleView, sendConsoleMessage, sendConsolePage, type ConsoleView } from './render.js';
import { formOf, ID_PATTERN, isInstanceAdmin, STEP_UP_SECONDS, type ConsolePageKit, type Operator, type SignedIn } from './kit.js';
import { pathParam } from './paths.js';
import { sectionPages } from './routes.sections.js';
import { CONSOLE_LOGIN_COOKIE, ConsoleCookies, type ConsoleSession } from './session.js';

export interface ConsoleRouteDeps {
  config: Pick<Config, 'publicUrl' | 'smtpUrl'>;
  clock: Clock;
  keys: KeyRing;
  consoleAccess: ConsoleAccess;
}

/** An access token with less left than this is refreshed before the page uses it. */
const REFRESH_MARGIN_MS = 30 * 1000;

/** Console forms are a few short fields. */
const FORM_LIMIT = 16 * 1024;

/** A path under /console to come back to after signing in; anything else is dropped. */
function consolePath(value: unknown): string | undefined {
  return typeof value === 'string' && /^\/console(\/[A-Za-z0-9_\-/]*)?(\?[A-Za-z0-9_=&%.-]*)?$/.test(value) && value.length <= 512 ? value : undefined;
}

/**
 * The admin console (docs/console.md): server-rendered pages for operators, who sign in through
 * the instance's own hosted login as users of the system project (code + PKCE). Every read and
 * write is a call of the public management API with the operator's token (./api.ts).
 */
export function consoleRoutes(root: FastifyInstance, deps: ConsoleRouteDeps): void {
  const assets = loadAssets();
  const cookies = new ConsoleCookies(new SealedBox(deps.keys, 'console.cookie'));
  const publicUrl = deps.config.publicUrl;
  const config = { page: true, tenancy: 'credential' } as const;

  void root.register(async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_request, body, done) => done(null, body));

    const signIn = async (request: FastifyRequest, reply: FastifyReply, options: { setup?: string; next?: string; maxAge?: number } = {}) => {
      const view = consoleView(request);
      const client = await deps.consoleAccess.consoleClient();
      const login = newLogin(deps.clock.now(), { setup: options.setup, next: options.next });
      cookies.setLogin(request, reply, login);
      return reply.header('cache-control', 'no-store').redirect(authorizeUrl(publicUrl, client, login, { maxAge: options.maxAge, lang: view.explicitLang ? view.lang : undefined }), 303);
    };

    app.setErrorHandler(async (error, request, reply) => {
      const view = consoleView(request);
      if (error instanceof ConsoleSignInNeeded) {
        cookies.clear(request, reply, '_zconsole');
        return signIn(request, reply, { next: request.method === 'GET' ? consolePath(request.url) : undefined });
      }
      if (error instanceof ApiRefusal && (error.answer.status === 404 || error.answer.status === 403)) {
        return sendConsoleMessage(reply, view, assets, 404, { title: view.t('console.error.title'), text: view.t('console.error.not_found'), links: [{ href: consoleHref(view, '/console'), label: view.t('console.back') }] });
      }
      const status = error instanceof AppError ? error.status : (error as { statusCode?: number }).statusCode;
      const clientError = typeof status === 'number' && status >= 400 && status < 500;
      if (!clientError) request.log.error({ err: error, request_id: request.id }, 'console page failed');
      const text = error instanceof ApiRefusal ? view.t('console.error.api', { message: error.message }) : clientError ? (error as Error).message : view.t('ui.error.internal');
      return sendConsoleMessage(reply, view, assets, clientError ? status! : 500, { title: view.t('console.error.title'), text });
    });

    // The reply of each console request, so that a refreshed session can be stored from anywhere.
    const replies = new WeakMap<FastifyRequest, FastifyReply>();
    app.addHook('onRequest', async (request, reply) => {
      replies.set(request, reply);
    });

    /**
     * The session with a live access token: one about to expire is refreshed and stored again.
     * A refresh that is refused (the Gatehouse session ended, the token was used twice), or one
     * whose sign-in no longer holds AAL2 where it did, signs the operator in again.
     */
    const liveSession = async (request: FastifyRequest): Promise<ConsoleSession> => {
      const now = deps.clock.now();
      const session = cookies.session(request, now);
      if (!session) throw new ConsoleSignInNeeded();
      if (session.expiresAt - now.getTime() > REFRESH_MARGIN_MS) return session;
      let renewed: ConsoleSession;
      try {
        renewed = await refreshSession(app, publicUrl, await deps.consoleAccess.consoleClient(), session, now);
      } catch (error) {
        if (error instanceof CodeRefused) throw new ConsoleSignInNeeded();
        throw error;
      }
      if (session.acr === CONSOLE_ACR && renewed.acr !== CONSOLE_ACR) throw new ConsoleSignInNeeded();
      const reply = replies.get(request);
      if (reply) cookies.setSession(request, reply, renewed, now);
      return renewed;
    };

    /** The hosted settings page where an operator adds a passkey or an authenticator app. */
    const accountSettings = (systemProjectId: string) => `${publicUrl}/ui/settings?project_id=${encodeURIComponent(systemProjectId)}`;

    /**
     * The operator behind the console cookie, or a redirect to sign in. Once per request: a page
     * that renders after a write asks again, and a second refresh with the request's (used)
     * refresh token would read as reuse and revoke the operator's tokens.
     */
    const signedIn = new WeakMap<FastifyRequest, Promise<SignedIn>>();
    const operatorOf = (request: FastifyRequest): Promise<SignedIn> => {
      let found = signedIn.get(request);
      if (!found) signedIn.set(request, (found = resolveOperator(request)));
      return found;
    };
    const resolveOperator = async (request: FastifyRequest): Promise<SignedIn> => {
      const session = await liveSession(request);
      const api = new ConsoleApi(app, session.accessToken, request.ip);
      const answer = await api.call('GET', '/operators/me');
      if (answer.status !== 200) throw new ConsoleSignInNeeded();
      const operator = answer.body as unknown as Operator;
      // Signed up at the set-up with a password alone: every page asks for a second factor.
      const addFactor = session.acr === CONSOLE_ACR ? undefined : accountSettings((await deps.consoleAccess.consoleClient()).projectId);
      return { session, api, operator, chrome: { operator: { userId: operator.user_id, roles: [...new Set(operator.roles.map((role) => role.role))] }, outbox: !deps.config.smtpUrl, addFactor } };
    };
    /** Project pages call the API as the project: instance admins with their own token, project admins with a minted project token. */
    const apiForProject = async (request: FastifyRequest, api: ConsoleApi, operator: Operator, projectId: string): Promise<ConsoleApi> => {
      if (isInstanceAdmin(operator)) return api;
      const minted = await api.data<{ token: string }>('POST', '/operators/me/project_tokens', { project_id: projectId });
      return new ConsoleApi(app, minted.token, request.ip);
    };
    const writeGuard = (request: FastifyRequest) => assertSameOrigin(request, { publicUrl });
    // Once per request too: a project admin's project token is minted once.
    const asProjects = new WeakMap<FastifyRequest, ReturnType<ConsolePageKit['asProject']>>();
    const asProject: ConsolePageKit['asProject'] = (request) => {
      let found = asProjects.get(request);
      if (!found) {
        const projectId = pathParam(request, 'project_id');
        found = operatorOf(request).then(async (operator) => ({ ...operator, projectId, project: await apiForProject(request, operator.api, operator.operator, projectId) }));
        asProjects.set(request, found);
      }
      return found;
    };
    const stepUp: ConsolePageKit['stepUp'] = (request, reply, session, next) =>
      deps.clock.now().getTime() / 1000 - session.authTime <= STEP_UP_SECONDS ? undefined : signIn(request, reply, { next, maxAge: STEP_UP_SECONDS });
    const kit: ConsolePageKit = { app, assets, publicUrl, clock: deps.clock, operatorOf, apiForProject, asProject, writeGuard, signIn, stepUp, formOf };
    sectionPages(kit);

    // ---- signing in and out ----

    app.get('/console/login', { config, exposeHeadRoute: false }, async (request, reply) => signIn(request, reply, { next: consolePath((request.query as Record<string, unknown>).next) }));

    app.get('/console/callback', { config, exposeHeadRoute: false }, async (request, reply) => {
      const view = consoleView(request);
      const query = request.query as Record<string, unknown>;
      const login = cookies.login(request, deps.clock.now());
      cookies.clear(request, reply, CONSOLE_LOGIN_COOKIE);
      const failed = () => sendConsoleMessage(reply, view, assets, 400, { title: view.t('console.error.title'), text: view.t('console.error.sign_in_failed'), links: [{ href: consoleHref(view, '/console/login'), label: view.t('console.sign_in') }] });
      if (!login || typeof query.state !== 'string' || !constantTimeEqual(query.state, login.state) || typeof query.code !== 'string' || query.code.length > 512) return failed();
      const client = await deps.consoleAccess.consoleClient();
      let session: ConsoleSession;
      try {
        session = await redeemCode(app, publicUrl, client, login, query.code, deps.clock.now());
      } catch (error) {
        if (error instanceof CodeRefused) return failed();
        throw error;
      }
      if (login.setup && !(await deps.consoleAccess.completeSetup(login.setup, session.userId))) {
        return sendConsoleMessage(reply, view, assets, 400, { title: view.t('console.setup.title'), text: view.t('console.setup.invalid') });
      }
      const me = await new ConsoleApi(app, session.accessToken, request.ip).call('GET', '/operators/me').catch((error: unknown) => {
        if (error instanceof ConsoleSignInNeeded) return undefined;
        throw error;
      });
      if (me?.status !== 200) {
        // Signed in, but no operator: no cookie, or the console would send them round in a loop.
        return sendConsoleMessage(reply, view, assets, 403, { title: view.t('console.error.title'), text: view.t('console.error.not_operator') });
      }
      if (!login.setup && session.acr !== CONSOLE_ACR) {
        // A password alone is not enough for the console; the operator's account settings add a second factor.
        return sendConsoleMessage(reply, view, assets, 403, {
          title: view.t('console.error.title'),
          text: view.t('console.error.needs_aal2'),
          links: [
            { href: accountSettings(client.projectId), label: view.t('console.add_factor') },
            { href: consoleHref(view, '/console/login'), label: view.t('console.sign_in') },
          ],
        });
      }
      cookies.setSession(request, reply, session, deps.clock.now());
      const next = login.setup ? '/console?welcome=1' : (login.next ?? '/console');
      return reply.header('cache-control', 'no-store').redirect(consoleHref(view, next), 303);
    });

    app.post('/console/logout', { config }, async (request, reply) => {
      writeGuard(request);
      const session = cookies.session(request, deps.clock.now());
      cookies.clear(request, reply, '_zconsole');
      if (!session) return reply.header('cache-control', 'no-store').redirect('/console/signed-out', 303);
      const client = await deps.consoleAccess.consoleClient();
      // RP-initiated logout ends the operator's Gatehouse session too, and with it the token.
      const logout = new URL(`${publicUrl}/auth/logout`);
      logout.searchParams.set('id_token_hint', session.idToken);
      logout.searchParams.set('client_id', client.clientId);
      logout.searchParams.set('post_logout_redirect_uri', `${publicUrl}/console/signed-out`);
      return reply.header('cache-control', 'no-store').redirect(logout.toString(), 303);
    });

    app.get('/console/signed-out', { config, exposeHeadRoute: false }, async (request, reply) => {
      const view = consoleView(request);
      return sendConsoleMessage(reply, view, assets, 200, { title: view.t('ui.signed_out.title'), text: view.t('ui.signed_out.description'), links: [{ href: consoleHref(view, '/console/login'), label: view.t('console.sign_in') }] });
    });

    // ---- first run ----

    app.get('/console/setup', { config, exposeHeadRoute: false }, async (request, reply) => {
      const view = consoleView(request);
      const token = (request.query as Record<string, unknown>).token;
      if (typeof token !== 'string' || !(await deps.consoleAccess.setupTokenLive(token))) {
        return sendConsoleMessage(reply, view, assets, 404, { title: view.t('console.setup.title'), text: view.t('console.setup.invalid'), links: [{ href: consoleHref(view, '/console/login'), label: view.t('console.sign_in') }] });
      }
      const content =
        `<h1>${esc(view.t('console.setup.title'))}</h1><p class="description">${esc(view.t('console.setup.intro'))}</p>` +
        `<form method="post" action="${esc(consoleHref(view, '/console/setup'))}"><input type="hidden" name="token" value="${esc(token)}">` +
        `<button type="submit" class="btn primary">${esc(view.t('console.setup.start'))}</button></form>`;
      return sendConsolePage(reply, view, assets, 200, view.t('console.setup.title'), content);
    });

    app.post('/console/setup', { config }, async (request, reply) => {
      writeGuard(request);
      const view = consoleView(request);
      const token = formOf(request.body).get('token');
      if (!token || !(await deps.consoleAccess.setupTokenLive(token))) {
        return sendConsoleMessage(reply, view, assets, 404, { title: view.t('console.setup.title'), text: view.t('console.setup.invalid') });
      }
      return signIn(request, reply, { setup: token });
    });

    // ---- projects ----

    const listProjects = async (api: ConsoleApi) => (await api.data<{ projects: ProjectSummary[] }>('GET', '/projects?limit=100')).projects;
    const systemProjectOf = async (api: ConsoleApi, operator: Operator) => (isInstanceAdmin(operator) ? (await api.data<{ project_id: string }>('GET', '/operators/system_project')).project_id : undefined);

    app.get('/console', { config, exposeHeadRoute: false }, async (request, reply) => {
      const view = consoleView(request);
      const { api, operator, chrome } = await operatorOf(request);
      const query = request.query as Record<string, unknown>;
      const notice = query.welcome === '1' ? view.t('console.setup.done') : query.notice === 'project_deleted' ? view.t('console.notice.project_deleted') : undefined;
      const content = projectsMarkup(view, await listProjects(api), { canCreate: isInstanceAdmin(operator), systemProjectId: await systemProjectOf(api, operator), notice });
      return sendConsolePage(reply, view, assets, 200, view.t('console.projects.title'), content, chrome);
    });

    app.post('/console/projects', { config }, async (request, reply) => {
      writeGuard(request);
      const view = consoleView(request);
      const { api, operator, chrome } = await operatorOf(request);
      const name = formOf(request.body).get('name') ?? '';
      const answer = await api.call('POST', '/projects', { name });
      if (answer.status !== 201) {
        const error = answer.status === 400 ? view.t('console.error.api', { message: String(answer.body.message ?? '') }) : undefined;
        if (!error) throw new ApiRefusal(answer);
        const content = projectsMarkup(view, await listProjects(api), { canCreate: isInstanceAdmin(operator), systemProjectId: await systemProjectOf(api, operator), error });
        return sendConsolePage(reply, view, assets, 400, view.t('console.projects.title'), content, chrome);
      }
      // The secret exists in this answer only: shown here, never behind a redirect.
      const created = answer.body as unknown as ProjectSummary & { project_secret: string };
      return sendConsolePage(reply, view, assets, 201, view.t('console.project.title', { name: created.name }), projectMarkup(view, created, publicUrl, { created, outbox: chrome.outbox }), chrome);
    });

    app.get('/console/projects/:project_id', { config, exposeHeadRoute: false }, async (request, reply) => {
      const view = consoleView(request);
      const { api, operator, chrome } = await operatorOf(request);
      const projectId = (request.params as { project_id: string }).project_id;
      if (!ID_PATTERN.test(projectId)) throw new ApiRefusal({ status: 404, body: {} });
      const project = await (await apiForProject(request, api, operator, projectId)).data<ProjectSummary>('GET', `/projects/${projectId}`);
      return sendConsolePage(reply, view, assets, 200, view.t('console.project.title', { name: project.name }), projectMarkup(view, project, publicUrl, { outbox: chrome.outbox }), chrome);
    });
  });
}

export type { ConsoleView };
