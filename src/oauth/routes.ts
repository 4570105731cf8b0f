import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Credentials } from '../core/credentials.js';
import { self, type Actor } from '../events/types.js';
import { bearerToken } from '../http/auth.js';
import { actorRefOf } from '../schemas/caller.js';
import { invalidClient, type Form } from './client-auth.js';
import { discoveryDocument, issuerOf } from './discovery.js';
import { invalidToken, missingToken, oauthError, registerOAuthErrors } from './errors.js';
import { authorizeRoutes, type AuthorizeRouteDeps } from './authorize.routes.js';
import { oauthClientRoutes, type OAuthClientRouteDeps } from './clients.routes.js';
import { deviceRoutes } from './device/routes.js';
import { grantHandlers } from './grants.js';
import type { RevocationCaller } from './tokens.js';
import { DiscoverySchema, IntrospectionSchema, JwksSchema, oauthResponses, TokenResponseSchema, UserInfoSchema } from './schemas.js';

const FORM_LIMIT = 65_536;

export interface OAuthRouteDeps extends AuthorizeRouteDeps, OAuthClientRouteDeps {
  credentials: Credentials;
}

/** RFC 6749 §3.2: form parameters, each at most once; parsed only inside the /auth context. */
function parseForm(_request: FastifyRequest, body: string | Buffer, done: (error: Error | null, body?: Form) => void): void {
  const form = Object.create(null) as Form;
  for (const [name, value] of new URLSearchParams(body.toString())) {
    if (Object.hasOwn(form, name)) return done(oauthError('invalid_request', `The parameter "${name}" is repeated.`, { parameter: name }));
    form[name] = value;
  }
  done(null, form);
}

export function formOf(request: FastifyRequest): Form {
  const body = request.body;
  return body && typeof body === 'object' ? (body as Form) : (Object.create(null) as Form);
}

export function required(form: Form, name: string): string {
  const value = form[name];
  if (value === undefined || value === '') throw oauthError('invalid_request', `The "${name}" parameter is required.`, { parameter: name });
  return value;
}

/** RFC 6750 §2.1 only: the access token travels in the Authorization header. */
function bearerOnly(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw missingToken();
  const token = bearerToken(request);
  if (!token) throw invalidToken('The Authorization header is not a bearer token.');
  return token;
}

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}

/** Who is revoking: a bearer credential (interface: "Bearer header") or an authenticated client. */
async function revocationCaller({ credentials, oauth }: Pick<OAuthRouteDeps, 'credentials' | 'oauth'>, request: FastifyRequest, form: Form): Promise<RevocationCaller> {
  const token = bearerToken(request);
  if (request.headers.authorization && /^Bearer\b/i.test(request.headers.authorization)) {
    if (!token) throw invalidToken('The bearer credential is malformed.');
    const principal = await credentials.resolve(token);
    if (principal?.kind === 'project' && principal.via !== 'preview_secret') {
      return { projectId: principal.projectId, clientId: principal.via === 'access_token' ? principal.clientId : undefined, actor: actorRefOf(principal) };
    }
    // An end user's own access token may revoke that user's tokens of its client (logout), never
    // another user's; a client-credentials token (no user) speaks for the client itself.
    const row = await oauth.tokens.active(token, 'access');
    if (row) return { projectId: row.project_id, clientId: row.client_id, ...(row.user_id ? { userId: row.user_id } : {}), actor: row.user_id ? self(row.user_id) : { kind: 'oauth_client', id: row.client_id } };
    throw invalidToken();
  }
  const client = await oauth.clients.authenticate(request.headers.authorization, form);
  const actor: Actor = client.kind === 'root' ? { kind: 'project_secret', id: null } : { kind: client.kind === 'service_key' ? 'service_key' : 'oauth_client', id: client.clientId };
  return { projectId: client.projectId, clientId: client.kind === 'root' ? undefined : client.clientId, actor };
}

export function oauthRoutes(root: FastifyInstance, deps: OAuthRouteDeps): void {
  const { oauth } = deps;
  oauthClientRoutes(root, deps);

  root.get('/.well-known/openid-configuration', { config: { tenancy: 'public', cacheable: true }, schema: { tags: ['oauth'], summary: 'OpenID Provider metadata', response: { 200: DiscoverySchema } } }, async (request, reply) => {
    return reply.header('cache-control', 'public, max-age=300').send(discoveryDocument(issuerOf(deps.config)));
  });

  void root.register(
    async (app) => {
      app.removeAllContentTypeParsers();
      app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT }, parseForm);
      registerOAuthErrors(app);
      authorizeRoutes(app, deps);
      deviceRoutes(app, deps);

      app.get('/jwks', { config: { tenancy: 'public', cacheable: true }, schema: { tags: ['oauth'], summary: 'The JSON Web Key Set for ID tokens', response: oauthResponses({ 200: JwksSchema }) } }, async (_request, reply) => {
        return reply.header('cache-control', 'public, max-age=300').type('application/jwk-set+json').send(await oauth.signingKeys.jwks());
      });

      app.post('/token', { config: { tenancy: 'credential', emits: ['oauth.token_revoked'] }, schema: { tags: ['oauth'], summary: 'Token endpoint (RFC 6749, 8693, 8628)', response: oauthResponses({ 200: TokenResponseSchema }) } }, async (request, reply) => {
        const form = formOf(request);
        const grantType = required(form, 'grant_type');
        const client = await oauth.clients.authenticate(request.headers.authorization, form);
        const handler = grantHandlers.get(grantType);
        if (!handler) throw oauthError('unsupported_grant_type', `The grant type "${grantType}" is not supported.`, { grant_type: grantType });
        return noStore(reply).send(await handler({ oauth, client, form, issuer: issuerOf(deps.config) }));
      });

      app.post('/revoke', { config: { tenancy: 'credential', emits: ['oauth.token_revoked'] }, schema: { tags: ['oauth'], summary: 'Token revocation (RFC 7009)', response: oauthResponses({ 200: Type.Null() }) } }, async (request, reply) => {
        const form = formOf(request);
        const caller = await revocationCaller(deps, request, form);
        await oauth.tokens.revoke(caller, required(form, 'token'));
        return noStore(reply).status(200).send();
      });

      for (const method of ['GET', 'POST'] as const) {
        app.route({
          method,
          url: '/userinfo',
          config: { tenancy: 'credential', emits: [], emitsNone: 'a read (OpenID Connect allows POST)' },
          schema: { tags: ['oauth'], summary: 'OpenID Connect userinfo (claims through x-claim)', response: oauthResponses({ 200: UserInfoSchema }) },
          handler: async (request, reply) => noStore(reply).send(await oauth.userTokens.userinfo(bearerOnly(request))),
        });
      }

      app.post('/introspect', { config: { tenancy: 'credential', emits: [], emitsNone: 'a read (RFC 7662) sent as a form' }, schema: { tags: ['oauth'], summary: 'Token introspection (RFC 7662)', response: oauthResponses({ 200: IntrospectionSchema }) } }, async (request, reply) => {
        const form = formOf(request);
        const client = await oauth.clients.authenticate(request.headers.authorization, form);
        // RFC 7662 §2.1/§4: anyone can claim a public client's id, so it must not learn about tokens.
        if (client.isPublic) throw invalidClient(false, 'Public clients cannot introspect tokens; use a confidential client or a service key.');
        const token = required(form, 'token');
        return noStore(reply).send(await oauth.tokens.introspect(client.projectId, token, issuerOf(deps.config)));
      });
    },
    { prefix: '/auth' },
  );
}
