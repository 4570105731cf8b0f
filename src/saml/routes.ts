import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ErrorBody, Id, listBody, listOf, NoContent, PageQuery, Timestamp } from '../http/schemas.js';
import { principalOf } from '../http/auth.js';
import { actorRefOf } from '../schemas/caller.js';
import type { SamlProviderService } from './service.js';

const Slug = Type.String({ pattern: '^[a-z][a-z0-9-]{0,63}$', description: 'The provider id: a slug chosen by the operator' });
const LinkSchema = Type.Union([Type.Literal('none'), Type.Literal('verified_email')], {
  description: 'verified_email: the assertion\'s e-mail counts as verified (the operator trusts the IdP): it links an existing user with that verified address at once, and a user created just in time keeps it verified',
});
const Attributes = Type.Record(Type.String({ minLength: 1, maxLength: 200 }), Type.String({ minLength: 1, maxLength: 300 }), {
  maxProperties: 20,
  description: 'Schema property path -> SAML attribute Name; a property not named here is read from the common claim URIs (docs/saml.md)',
});

export const SamlProviderSchema = Type.Object({
  id: Type.String(),
  project_id: Type.String(),
  name: Type.String(),
  idp_metadata_url: Type.Optional(Type.String()),
  idp_metadata_xml: Type.Optional(Type.String()),
  idp_entity_id: Type.Union([Type.String(), Type.Null()], { description: 'From the IdP metadata' }),
  idp_sso_url: Type.Union([Type.String(), Type.Null()], { description: 'The IdP\'s SingleSignOnService (HTTP-Redirect binding)' }),
  idp_certificates: Type.Integer({ description: 'How many signing certificates the metadata lists (several during a rollover)' }),
  metadata_fetched_at: Type.Optional(Timestamp),
  domains: Type.Array(Type.String(), { description: 'E-mail domains whose sign-ins go to this IdP (home-realm discovery)' }),
  attributes: Attributes,
  link: LinkSchema,
  enabled: Type.Boolean(),
  sp_entity_id: Type.String({ description: 'The SP entity id (Audience) to register at the IdP' }),
  acs_url: Type.String({ description: 'The Assertion Consumer Service URL (HTTP-POST) to register at the IdP' }),
  sp_metadata_url: Type.String({ description: 'The SP metadata to give the IdP' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const PutBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    idp_metadata_xml: Type.Optional(Type.String({ minLength: 1, maxLength: 512 * 1024, description: 'The IdP metadata document (exactly one of this and idp_metadata_url)' })),
    idp_metadata_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'Where the IdP publishes its metadata: fetched now, cached, and fetched again daily (https; http only on loopback)' })),
    domains: Type.Optional(Type.Array(Type.String({ minLength: 3, maxLength: 253 }), { maxItems: 50, uniqueItems: true, description: 'E-mail domains sent to this IdP instead of a password; unique per project' })),
    attributes: Type.Optional(Attributes),
    link: Type.Optional(LinkSchema),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const ProjectParams = Type.Object({ project_id: Id() });
const ProviderParams = Type.Object({ project_id: Id(), provider_id: Slug });

export interface SamlProviderRouteDeps {
  samlProviders: SamlProviderService;
}

/** SAML 2.0 identity providers per project (DESIGN §4.20); `project.write`, like SSO providers. */
export function samlProviderRoutes(root: FastifyInstance, { samlProviders }: SamlProviderRouteDeps): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['saml'];
  const config = { tenancy: { project: 'params' as const }, scope: 'project.write' };

  app.put(
    '/projects/:project_id/saml_providers/:provider_id',
    {
      config: { ...config, emits: ['saml_provider.created', 'saml_provider.updated'] as const },
      schema: {
        tags,
        summary: 'Create or replace a SAML 2.0 identity provider (metadata inline or by URL)',
        params: ProviderParams,
        headers: Type.Object({ 'if-none-match': Type.Optional(Type.String({ description: '`*`: create only; a taken id answers 412 req.precondition_failed' })) }),
        body: PutBody,
        response: { 200: SamlProviderSchema, 201: SamlProviderSchema, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 412: ErrorBody },
      },
    },
    async (request, reply) => {
      const createOnly = request.headers['if-none-match'] === '*';
      const { provider, created } = await samlProviders.put(request.params.project_id, request.params.provider_id, request.body, { createOnly, actor: actorRefOf(principalOf(request)) });
      return reply.status(created ? 201 : 200).send(provider);
    },
  );

  app.get(
    '/projects/:project_id/saml_providers',
    {
      config,
      schema: { tags, summary: 'List SAML identity providers', params: ProjectParams, querystring: Type.Object(PageQuery, { additionalProperties: false }), response: { 200: listOf('saml_providers', SamlProviderSchema) } },
    },
    async (request) => listBody('saml_providers', await samlProviders.list(request.params.project_id, { limit: request.query.limit, pageToken: request.query.page_token })),
  );

  app.get(
    '/projects/:project_id/saml_providers/:provider_id',
    { config, schema: { tags, summary: 'Read a SAML identity provider', params: ProviderParams, response: { 200: SamlProviderSchema, 404: ErrorBody } } },
    async (request) => samlProviders.get(request.params.project_id, request.params.provider_id),
  );

  app.delete(
    '/projects/:project_id/saml_providers/:provider_id',
    { config: { ...config, emits: ['saml_provider.deleted'] as const }, schema: { tags, summary: 'Delete a SAML identity provider (idempotent)', params: ProviderParams, response: { 204: NoContent } } },
    async (request, reply) => {
      await samlProviders.delete(request.params.project_id, request.params.provider_id, actorRefOf(principalOf(request)));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/saml/:provider_id/metadata',
    {
      config: { tenancy: 'public' },
      schema: {
        tags,
        summary: 'The SP metadata of a SAML provider: entity id, ACS (HTTP-POST) and the encryption certificate, for the IdP',
        params: Type.Object({ provider_id: Slug }),
        querystring: Type.Object({ project_id: Id('The project') }, { additionalProperties: false }),
        response: {
          200: { description: 'SAML 2.0 metadata (EntityDescriptor)', content: { 'application/samlmetadata+xml': { schema: { type: 'string' } } } },
          404: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const xml = await samlProviders.spMetadata(request.query.project_id, request.params.provider_id);
      return reply.type('application/samlmetadata+xml; charset=utf-8').header('cache-control', 'no-cache').send(xml);
    },
  );
}
