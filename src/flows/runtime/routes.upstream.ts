import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ownOriginsOf } from '../../core/public-url.js';
import { clearCookie, cookieOptions, cookieValue } from '../../http/cookies.js';
import { FLOW_COOKIE } from '../cookie.js';
import type { AuthMethod } from '../methods/declaration.js';
import { METHODS } from '../methods/registry.js';
import { FLOW_TTL_MS } from '../state.js';
import type { FlowRuntime } from './engine.js';
import { contextOf } from './routes.js';

/** Parses a form once per name: a repeated parameter is refused like unknown ones. */
function parseForm(_request: unknown, body: string | Buffer, done: (error: Error | null, body?: Record<string, string>) => void): void {
  const form: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(body.toString())) {
    if (Object.hasOwn(form, name)) return done(Object.assign(new Error(`The parameter "${name}" is repeated.`), { statusCode: 400 }));
    form[name] = value;
  }
  done(null, form);
}

/**
 * Where upstream providers send the browser back, one path per method that declares one
 * (`upstreamReturn`: the SSO callback, DESIGN §4.14). GET is the usual return; POST is
 * `response_mode=form_post` (Apple), answered with a 303 to the GET form: a cross-site POST
 * carries no SameSite=Lax cookie, the top-level GET it turns into does.
 */
export function upstreamReturnRoutes(root: FastifyInstance, runtime: FlowRuntime, publicUrl: string, methods: readonly AuthMethod[] = METHODS): void {
  const ownOrigins = new Set(ownOriginsOf(publicUrl));
  void root.register(async (plugin) => {
    plugin.removeAllContentTypeParsers();
    // 16 KiB unless a method's returns post more (a SAML response with its certificate).
    const bodyLimit = Math.max(16 * 1024, ...methods.map((method) => method.upstreamReturn?.maxPostBytes ?? 0));
    plugin.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit }, parseForm);
    const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['flows'];

    for (const method of methods) {
      const upstream = method.upstreamReturn;
      if (upstream === undefined) continue;
      app.get(
        upstream.path,
        { config: { tenancy: 'public' }, schema: { tags, summary: upstream.summaries.get, querystring: upstream.params, response: { 303: Type.Null() } } },
        async (request, reply) => {
          const answer = await runtime.returnFromUpstream(method, request.query as Record<string, string>, cookieValue(request, upstream.bindingCookie), contextOf(request, reply));
          clearCookie(request, reply, upstream.bindingCookie);
          if (answer.cookie !== null) {
            const options = cookieOptions(request, FLOW_TTL_MS / 1000);
            // A frontend on another site reads the flow next: over https its cookie must stay SameSite=None.
            // "Another site" is judged against the public URL, never the Host this request named.
            const crossSite = request.protocol === 'https' && !ownOrigins.has(new URL(answer.location).origin);
            void reply.setCookie(FLOW_COOKIE, answer.cookie, crossSite ? { ...options, sameSite: 'none', secure: true } : options);
          }
          return reply.status(303).header('location', answer.location).header('cache-control', 'no-store').send(null);
        },
      );

      app.post(
        upstream.path,
        { config: { tenancy: 'public', emits: ['sso.linked', 'user.created', 'login.failed'] }, schema: { tags, summary: upstream.summaries.post, body: upstream.params, response: { 303: Type.Null() } } },
        async (request, reply) => {
          const form = request.body as Record<string, string>;
          const query = new URLSearchParams(upstream.fromPost ? upstream.fromPost(form) : form).toString();
          return reply.status(303).header('location', `${upstream.path}?${query}`).header('cache-control', 'no-store').send(null);
        },
      );
    }
  });
}
