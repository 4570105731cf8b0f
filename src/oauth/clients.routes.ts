import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { principalOf } from '../http/auth.js';
import { ErrorBody, Id, listBody, listOf, NoContent, PageQuery, Timestamp } from '../http/schemas.js';
import { actorRefOf } from '../schemas/caller.js';
import { CLIENT_GRANT_TYPES, DEVICE_CODE_GRANT } from './clients.js';
import type { OAuthPlane } from './plane.js';

export const OidcClientSchema = Type.Object({
  client_id: Type.String(),
  project_id: Type.String(),
  name: Type.String(),
  redirect_uris: Type.Array(Type.String()),
  token_endpoint_auth_method: Type.String(),
  login_uri: Type.Optional(Type.String({ description: 'The frontend that runs the login flow for this client' })),
  post_logout_redirect_uris: Type.Array(Type.String(), { description: 'Where /auth/logout may send the browser back (exact URLs)' }),
  backchannel_logout_uri: Type.Optional(Type.String({ description: 'Back-Channel Logout 1.0: where logout tokens are posted when a session ends' })),
  grant_types: Type.Array(Type.String(), { description: 'RFC 7591 grant_types the client may use' }),
  created_at: Timestamp,
});

const CreatedOidcClientSchema = Type.Object({
  ...OidcClientSchema.properties,
  client_secret: Type.Optional(Type.String({ description: 'Shown once; stored only as a hash. Absent for public clients.' })),
});

const ProjectParams = Type.Object({ project_id: Id() });

export interface OAuthClientRouteDeps {
  oauth: OAuthPlane;
}

/** Registration of OIDC clients (relying parties) per project; `project.write` like service keys. */
export function oauthClientRoutes(root: FastifyInstance, { oauth }: OAuthClientRouteDeps): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/projects/:project_id/oauth_clients',
    {
      config: { tenancy: { project: 'params' }, scope: 'project.write', emits: ['oauth_client.created'] },
      schema: {
        tags: ['oauth'],
        summary: 'Register an OIDC client (authorization code + PKCE, and/or the device authorization grant)',
        params: ProjectParams,
        body: Type.Object(
          {
            name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            redirect_uris: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: 20, description: 'Exact URLs; at least one with the authorization_code grant' })),
            grant_types: Type.Optional(
              Type.Array(Type.Union(CLIENT_GRANT_TYPES.map((grant) => Type.Literal(grant))), {
                minItems: 1,
                maxItems: 3,
                description: `RFC 7591 grant_types. Default ["authorization_code", "refresh_token"]; "${DEVICE_CODE_GRANT}" opts in to the device authorization grant (RFC 8628), which only the clients naming it may use. refresh_token: refresh tokens are issued.`,
              }),
            ),
            token_endpoint_auth_method: Type.Optional(Type.Union([Type.Literal('client_secret_basic'), Type.Literal('client_secret_post'), Type.Literal('none')])),
            login_uri: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Default: the hosted UI at /ui/login' })),
            backchannel_logout_uri: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Back-Channel Logout 1.0: https URL that receives logout tokens' })),
            post_logout_redirect_uris: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: 20, description: 'RP-initiated logout: exact URLs /auth/logout may redirect to' })),
          },
          { additionalProperties: false },
        ),
        response: { 201: CreatedOidcClientSchema },
      },
    },
    async (request, reply) => {
      return reply.status(201).send(await oauth.oidcClients.create(request.params.project_id, request.body, actorRefOf(principalOf(request))));
    },
  );

  app.get(
    '/projects/:project_id/oauth_clients',
    {
      config: { tenancy: { project: 'params' }, scope: 'project.write' },
      schema: {
        tags: ['oauth'],
        summary: 'List OIDC clients (secrets are never shown again)',
        params: ProjectParams,
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: { 200: listOf('oauth_clients', OidcClientSchema) },
      },
    },
    async (request) => {
      const page = await oauth.oidcClients.list(request.params.project_id, { limit: request.query.limit, pageToken: request.query.page_token });
      return listBody('oauth_clients', page);
    },
  );

  app.get(
    '/projects/:project_id/oauth_clients/:client_id',
    {
      config: { tenancy: { project: 'params' }, scope: 'project.write' },
      schema: {
        tags: ['oauth'],
        summary: 'Read an OIDC client',
        params: Type.Object({ project_id: Id(), client_id: Id() }),
        response: { 200: OidcClientSchema, 404: ErrorBody },
      },
    },
    async (request) => {
      return oauth.oidcClients.get(request.params.project_id, request.params.client_id);
    },
  );

  app.delete(
    '/projects/:project_id/oauth_clients/:client_id',
    {
      config: { tenancy: { project: 'params' }, scope: 'project.write', emits: ['oauth_client.deleted'] },
      schema: {
        tags: ['oauth'],
        summary: 'Delete an OIDC client (idempotent); its pending authorizations go with it',
        params: Type.Object({ project_id: Id(), client_id: Id() }),
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await oauth.oidcClients.delete(request.params.project_id, request.params.client_id, actorRefOf(principalOf(request)));
      return reply.status(204).send(null);
    },
  );
}
