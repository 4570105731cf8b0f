import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ownOriginsOf } from '../../../core/public-url.js';
import { clearCookie, cookieOptions, cookieValue } from '../../../http/cookies.js';
import { FLOW_COOKIE } from '../../cookie.js';
import { FLOW_TTL_MS } from '../../state.js';
import { SSO_CALLBACK_PATH } from '../../../sso/service.js';
import type { FlowRuntime } from '../../runtime/engine.js';
import { contextOf } from '../../runtime/routes.js';
import { ssoCallback } from './callback.js';
import { SSO_COOKIE } from './start.js';

/** What a provider may send back (RFC 6749 §4.1.2, RFC 9207 `iss`, Apple's `user`), each once and short. */
const CallbackParams = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 4096 })),
    state: Type.Optional(Type.String({ maxLength: 512 })),
    iss: Type.Optional(Type.String({ maxLength: 2048 })),
    error: Type.Optional(Type.String({ maxLength: 256 })),
    error_description: Type.Optional(Type.String({ maxLength: 1024 })),
    error_uri: Type.Optional(Type.String({ maxLength: 2048 })),
    session_state: Type.Optional(Type.String({ maxLength: 512 })),
    scope: Type.Optional(Type.String({ maxLength: 2048 })),
    authuser: Type.Optional(Type.String({ maxLength: 16 })),
    prompt: Type.Optional(Type.String({ maxLength: 64 })),
    hd: Type.Optional(Type.String({ maxLength: 256 })),
    user: Type.Optional(Type.String({ maxLength: 4096 })),
  },
  { additionalProperties: false },
);

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
 * The upstream SSO callback (DESIGN §4.14). GET is the usual return; POST is `response_mode=form_post`
 * (Apple), answered with a 303 to the GET form: a cross-site POST carries no SameSite=Lax cookie,
 * the top-level GET it turns into does.
 */
export function ssoCallbackRoutes(root: FastifyInstance, runtime: FlowRuntime, publicUrl: string): void {
  const ownOrigins = new Set(ownOriginsOf(publicUrl));
  void root.register(async (plugin) => {
    plugin.removeAllContentTypeParsers();
    plugin.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, parseForm);
    const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['flows'];

    app.get(
      SSO_CALLBACK_PATH,
      {
        config: { tenancy: 'public' },
        schema: { tags, summary: 'Where upstream identity providers send the browser back (sets _zflow, clears _zsso, 303 to return_to?flow=<id>)', querystring: CallbackParams, response: { 303: Type.Null() } },
      },
      async (request, reply) => {
        const answer = await ssoCallback(runtime, request.query as Record<string, string>, cookieValue(request, SSO_COOKIE), contextOf(request, reply));
        clearCookie(request, reply, SSO_COOKIE);
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
      SSO_CALLBACK_PATH,
      { config: { tenancy: 'public' }, schema: { tags, summary: 'The form_post return of an upstream provider: 303 to the GET form', body: CallbackParams, response: { 303: Type.Null() } } },
      async (request, reply) => {
        const query = new URLSearchParams(request.body as Record<string, string>).toString();
        return reply.status(303).header('location', `${SSO_CALLBACK_PATH}?${query}`).header('cache-control', 'no-store').send(null);
      },
    );
  });
}
