import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import { cookieOptions, cookieValue, setCookieUntil } from '../http/cookies.js';
import { SESSION_COOKIE } from '../sessions/cookie.js';
import { AUTHORIZATION_COOKIE, type AuthorizeOutcome } from './authorize.js';
import { issuerOf } from './discovery.js';
import { oauthError } from './errors.js';
import type { OAuthPlane } from './plane.js';
import { oauthResponses } from './schemas.js';

export interface AuthorizeRouteDeps {
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
  oauth: OAuthPlane;
}

const Redirect = Type.Null({ description: 'Redirect (Location) to the login frontend or back to the client' });

/** Query parameters as single strings; a repeated parameter is an invalid request (RFC 6749 §3.1). */
function singleParams(raw: unknown): Record<string, string | undefined> {
  const params: Record<string, string | undefined> = Object.create(null);
  for (const [name, value] of Object.entries((raw ?? {}) as Record<string, unknown>)) {
    if (typeof value !== 'string') throw oauthError('invalid_request', `The parameter "${name}" is repeated.`, { parameter: name });
    if (value.length > 2048) throw oauthError('invalid_request', `The parameter "${name}" is too long.`, { parameter: name });
    params[name] = value;
  }
  return params;
}

function send(clock: Clock, request: FastifyRequest, reply: FastifyReply, outcome: AuthorizeOutcome, status: 302 | 303): FastifyReply {
  const now = clock.now();
  if (outcome.bind) {
    const maxAge = (outcome.bind.expiresAt.getTime() - now.getTime()) / 1000;
    void reply.setCookie(AUTHORIZATION_COOKIE, outcome.bind.authorizationId, { ...cookieOptions(request, maxAge), path: '/auth' });
  }
  if (outcome.session) setCookieUntil(request, reply, SESSION_COOKIE, outcome.session.token, now, outcome.session.expiresAt);
  // The handoff token may travel in the resume URL: never hand it on as a Referer.
  reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
  if (outcome.formPost) return sendFormPost(reply, outcome.formPost);
  return reply.redirect(outcome.location, status);
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * OAuth 2.0 Form Post Response Mode: a page whose form posts the response to the client. A script
 * of Gatehouse's own submits it (the CSP allows no inline script); without JavaScript the user
 * presses the button. The form may post only to the client's origin.
 */
function sendFormPost(reply: FastifyReply, post: { action: string; fields: Record<string, string> }): FastifyReply {
  const inputs = Object.entries(post.fields).map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Continue</title><script src="/auth/form_post.js" defer></script></head><body><form method="post" action="${escapeHtml(post.action)}">${inputs}<noscript><p>JavaScript is off: continue to the application.</p></noscript><button type="submit">Continue</button></form></body></html>`;
  return reply
    .status(200)
    .header('content-security-policy', `default-src 'none'; script-src 'self'; form-action ${new URL(post.action).origin}; frame-ancestors 'none'; base-uri 'none'`)
    .header('x-content-type-options', 'nosniff')
    .type('text/html; charset=utf-8')
    .send(html);
}

/** Submits the form_post page's form (served as a file: the page's CSP allows no inline script). */
export const FORM_POST_SCRIPT = 'document.addEventListener("DOMContentLoaded",function(){var f=document.forms[0];if(f)f.submit();});\n';

/** GET /auth/authorize and the resume step the login frontend returns to (inside the /auth context). */
export function authorizeRoutes(app: FastifyInstance, deps: AuthorizeRouteDeps): void {
  const { authorization } = deps.oauth;

  app.get(
    '/authorize',
    { config: { tenancy: 'credential' },
      // HEAD must not create authorization requests.
      exposeHeadRoute: false,
      schema: {
        tags: ['oauth'],
        summary: 'Authorization endpoint: code + PKCE (S256); sign-in is a Gatehouse login flow',
        response: oauthResponses({ 302: Redirect }),
      },
    },
    async (request, reply) => {
      const outcome = await authorization.authorize(
        singleParams(request.query),
        issuerOf(deps.config),
        cookieValue(request, SESSION_COOKIE),
        request.ip,
      );
      return send(deps.clock, request, reply, outcome, 302);
    },
  );

  // OIDC Core §3.1.2.1: the authorization endpoint takes POST (form) as well as GET.
  app.post(
    '/authorize',
    { config: { tenancy: 'credential', emits: [], emitsNone: 'a pending authorization request; the sign-in it leads to is logged by the exchange at /auth/authorize/resume' },
      schema: {
        tags: ['oauth'],
        summary: 'Authorization endpoint, form POST: the same parameters as GET',
        response: oauthResponses({ 303: Redirect }),
      },
    },
    async (request, reply) => {
      const outcome = await authorization.authorize(singleParams(request.body), issuerOf(deps.config), cookieValue(request, SESSION_COOKIE), request.ip);
      return send(deps.clock, request, reply, outcome, 303);
    },
  );

  app.get('/form_post.js', { config: { tenancy: 'public', cacheable: true }, schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=86400').type('text/javascript; charset=utf-8').send(FORM_POST_SCRIPT),
  );

  const resume = async (request: FastifyRequest, reply: FastifyReply, params: Record<string, string | undefined>, status: 302 | 303) => {
    const outcome = await authorization.resume(
      params.authorization_id,
      cookieValue(request, AUTHORIZATION_COOKIE),
      params.handoff_token,
      issuerOf(deps.config),
    );
    void reply.setCookie(AUTHORIZATION_COOKIE, '', { ...cookieOptions(request, 0), path: '/auth' });
    return send(deps.clock, request, reply, outcome, status);
  };
  const summary = 'Back from the login flow: exchanges its handoff token and redirects to the client with the code';
  app.get('/authorize/resume', { config: { tenancy: 'credential' }, exposeHeadRoute: false, schema: { tags: ['oauth'], summary, response: oauthResponses({ 302: Redirect }) } }, (request, reply) =>
    resume(request, reply, singleParams(request.query), 302),
  );
  app.post('/authorize/resume', { config: { tenancy: 'credential', emits: ['session.created', 'login.succeeded'] }, schema: { tags: ['oauth'], summary, response: oauthResponses({ 303: Redirect }) } }, (request, reply) =>
    resume(request, reply, singleParams(request.body), 303),
  );
}
