import type { Session } from '@gatehouse/client';
import { clearSessionCookie, cookieFrom, Gatehouse, requireSession, sessionCookie, stepUpUrl, verifyWebhook, type Denied, type GatehouseOptions, type SessionContext } from '@gatehouse/node';
import express, { type Request, type Response } from 'express';
import { esc, page, type Viewer } from './pages.js';

export interface ShopOptions {
  gatehouseUrl: string;
  /** the shop's own origin, e.g. http://localhost:3000 */
  shopUrl: string;
  projectId: string;
  serviceKey: { clientId: string; clientSecret: string };
  sessionCacheMs?: number;
  fetch?: GatehouseOptions['fetch'];
  /** the `whsec_` secret of the shop's webhook endpoint (POST /webhooks/gatehouse); unset: the endpoint answers 404 */
  webhookSecret?: string;
  /** what the shop does with a sign-up it hears of (default: one log line) */
  onSignup?: (userId: string) => void;
}

const RETURN_COOKIE = 'shop_return';
type Protected = Request & { gatehouse: SessionContext };

/**
 * The shop: sign-in through Gatehouse's hosted pages, the handoff token exchanged for the shop's
 * own session cookie, pages protected by requireSession, and "change e-mail" behind AAL2 with a
 * step-up of the same session.
 */
export function createShop(options: ShopOptions) {
  const gatehouse = new Gatehouse({ baseUrl: options.gatehouseUrl, projectId: options.projectId, serviceKey: options.serviceKey, sessionCacheMs: options.sessionCacheMs, fetch: options.fetch });
  const secure = options.shopUrl.startsWith('https:');
  const callback = `${options.shopUrl}/auth/callback`;
  const hosted = (page: 'login' | 'register', extra: Record<string, string> = {}) =>
    `${options.gatehouseUrl}/ui/${page}?${new URLSearchParams({ project_id: options.projectId, redirect_uri: callback, ...extra })}`;
  const remember = (response: Response, path: string) =>
    response.append('set-cookie', `${RETURN_COOKIE}=${encodeURIComponent(path)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=600${secure ? '; Secure' : ''}`);

  /**
   * Browsers are sent to sign in (401) or to a step-up of their session (403) instead of a JSON
   * refusal; the step-up names the missing level, so the hosted page explains itself.
   */
  const toSignIn = (denied: Denied, request: Request, response: Response) => {
    if (denied.status === 503) return response.status(503).set(denied.headers).send(page('Try again shortly', `<p>${esc(denied.body.message)}</p>`));
    remember(response, request.originalUrl);
    return response.redirect(303, stepUpUrl(gatehouse, denied, callback) ?? '/login');
  };
  const signedIn = requireSession<Request, Response>(gatehouse, { onDenied: toSignIn });
  const strong = requireSession<Request, Response>(gatehouse, { aal: 2, onDenied: toSignIn });
  const viewer = (session: Session): Viewer => ({ email: session.email, aal: session.assurance_levels });

  /** Form posts only from the shop's own pages (the cookie is SameSite=Lax too). */
  const sameOrigin = (request: Request, response: Response, next: () => void) => {
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== new URL(options.shopUrl).origin) return void response.status(403).send(page('Refused', '<p>This form came from another site.</p>'));
    next();
  };

  const app = express();
  app.disable('x-powered-by');
  app.use(express.urlencoded({ extended: false, limit: '8kb' }));

  app.get('/', async (request, response) => {
    const session = await gatehouse.verifySession(cookieFrom(request.headers.cookie, 'gatehouse_session')).catch(() => undefined);
    response.send(page('Welcome', '<p>Coffee, tea and biscuits. Sign in to see your account.</p>', session ? viewer(session) : undefined));
  });
  app.get('/login', (_request, response) => response.redirect(303, hosted('login')));
  app.get('/signup', (_request, response) => response.redirect(303, hosted('register')));

  app.get('/auth/callback', async (request, response) => {
    const handoff = typeof request.query.handoff_token === 'string' ? request.query.handoff_token : undefined;
    if (!handoff) return response.status(400).send(page('Sign-in failed', '<p>The sign-in did not complete. <a href="/login">Try again</a>.</p>'));
    try {
      const { session, session_token: token } = await gatehouse.exchangeHandoff(handoff);
      const back = cookieFrom(request.headers.cookie, RETURN_COOKIE);
      response.append('set-cookie', sessionCookie(token, session, { secure }));
      response.append('set-cookie', `${RETURN_COOKIE}=; Path=/; Max-Age=0`);
      // Only a path of this site: never an open redirect.
      return response.redirect(303, back && /^\/(?!\/)/.test(back) ? back : '/account');
    } catch {
      return response.status(400).send(page('Sign-in failed', '<p>This sign-in link was used or has expired. <a href="/login">Try again</a>.</p>'));
    }
  });

  app.get('/account', signedIn, (request, response) => {
    const { session } = (request as Protected).gatehouse;
    response.send(page('Your account', `<p>Session <code>${esc(session.session_id)}</code>, signed in with ${esc(session.factors.map((f) => f.method).join(' + '))}.</p>`, viewer(session)));
  });

  app.get('/account/email', strong, (request, response) => {
    const { session } = (request as Protected).gatehouse;
    response.send(
      page(
        'Change e-mail',
        `<p>This page needs a strong sign-in (urn:nist:aal:2), and you have one.</p>
         <form method="post" action="/account/email"><label>New e-mail address <input type="email" name="email" required></label><button type="submit">Save</button></form>`,
        viewer(session),
      ),
    );
  });

  app.post('/account/email', sameOrigin, strong, async (request, response) => {
    const { session } = (request as Protected).gatehouse;
    const email = typeof request.body?.email === 'string' ? request.body.email.trim() : '';
    const userId = session.user_id!;
    try {
      const user = await gatehouse.api.call(gatehouse.api.api.GET('/users/{user_id}', { params: { path: { user_id: userId } } }));
      await gatehouse.api.call(gatehouse.api.api.PATCH('/users/{user_id}', { params: { path: { user_id: userId } }, body: { attributes: { ...user.attributes, email } } }));
      response.send(page('E-mail changed', `<p>Your e-mail address is now <strong>${esc(email)}</strong>.</p>`, viewer(session)));
    } catch (error) {
      const message = error instanceof Error ? error.message : 'The change was refused.';
      response.status(400).send(page('Change e-mail', `<p role="alert">${esc(message)}</p><p><a href="/account/email">Back</a></p>`, viewer(session)));
    }
  });

  // Gatehouse tells the shop about new users: a signed delivery (Standard Webhooks), verified on the raw body.
  app.post('/webhooks/gatehouse', express.raw({ type: 'application/json', limit: '256kb' }), (request, response) => {
    if (!options.webhookSecret) return void response.status(404).end();
    try {
      const delivery = verifyWebhook<{ subject: { id: string | null } }>(options.webhookSecret, request.headers as Record<string, string>, Buffer.isBuffer(request.body) ? request.body : '');
      if (delivery.type === 'user.created' && delivery.data.subject.id) (options.onSignup ?? ((id) => console.log(`signed up: ${id}`)))(delivery.data.subject.id);
      response.status(204).end();
    } catch {
      response.status(400).end();
    }
  });

  app.post('/logout', sameOrigin, async (request, response) => {
    const token = cookieFrom(request.headers.cookie, 'gatehouse_session');
    const session = await gatehouse.verifySession(token).catch(() => undefined);
    if (session) await gatehouse.api.call(gatehouse.api.api.DELETE('/sessions/{session_id}', { params: { path: { session_id: session.session_id } } })).catch(() => undefined);
    if (token) gatehouse.forget(token);
    response.append('set-cookie', clearSessionCookie({ secure }));
    response.redirect(303, '/');
  });

  return app;
}
