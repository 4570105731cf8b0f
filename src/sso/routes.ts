import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SsoProviderService } from './service.js';
import { principalOf } from '../http/auth.js';
import { ErrorBody, Id, listBody, listOf, NoContent, PageQuery, Timestamp } from '../http/schemas.js';
import { actorRefOf } from '../schemas/caller.js';

const Slug = Type.String({ pattern: '^[a-z][a-z0-9-]{0,63}$', description: 'The provider id: a slug chosen by the operator' });
const TemplateSchema = Type.Union([Type.Literal('oidc'), Type.Literal('google'), Type.Literal('microsoft'), Type.Literal('apple'), Type.Literal('gitlab'), Type.Literal('github')]);
const LinkSchema = Type.Union([Type.Literal('none'), Type.Literal('verified_email')], { description: 'verified_email: link an existing user by a verified upstream e-mail at once (the operator trusts the provider)' });

export const SsoProviderSchema = Type.Object({
  id: Type.String(),
  project_id: Type.String(),
  name: Type.String(),
  template: TemplateSchema,
  issuer: Type.Optional(Type.String()),
  client_id: Type.String(),
  client_secret_set: Type.Boolean({ description: 'The secret itself is never returned' }),
  scopes: Type.Array(Type.String()),
  claims: Type.Record(Type.String(), Type.String(), { description: 'Schema property path -> upstream claim' }),
  link: LinkSchema,
  enabled: Type.Boolean(),
  redirect_uri: Type.String({ description: 'The redirect URI to register at the provider' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const PutBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    template: TemplateSchema,
    issuer: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Required by oidc and microsoft (the tenant issuer); preset by the others; for github, a GitHub Enterprise Server base URL (github.com when omitted)' })),
    client_id: Type.String({ minLength: 1, maxLength: 500 }),
    client_secret: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 4000 }), Type.Null()], { description: 'Omitted on a replacement: the stored secret stays; null removes it' })),
    scopes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 20 })),
    claims: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 200 }), Type.String({ minLength: 1, maxLength: 100 }), { maxProperties: 20 })),
    link: Type.Optional(LinkSchema),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const ProjectParams = Type.Object({ project_id: Id() });
const ProviderParams = Type.Object({ project_id: Id(), provider_id: Slug });


export interface SsoProviderRouteDeps {
  ssoProviders: SsoProviderService;
}

/** Upstream identity providers per project (DESIGN §4.14); `project.write`, like OAuth clients. */
export function ssoProviderRoutes(root: FastifyInstance, { ssoProviders }: SsoProviderRouteDeps): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.put(
    '/projects/:project_id/sso_providers/:provider_id',
    {
      config: { tenancy: { project: 'params' }, scope: 'project.write', emits: ['sso_provider.created', 'sso_provider.updated'] },
      schema: {
        tags: ['sso'],
        summary: 'Create or replace an upstream identity provider (the client secret is stored encrypted)',
        params: ProviderParams,
        headers: Type.Object({ 'if-none-match': Type.Optional(Type.String({ description: '`*`: create only; a taken id answers 412 req.precondition_failed and changes nothing' })) }),
        body: PutBody,
        response: { 200: SsoProviderSchema, 201: SsoProviderSchema, 400: ErrorBody, 404: ErrorBody, 412: ErrorBody },
      },
    },
    async (request, reply) => {
      // `If-None-Match: *` (RFC 9110 §13.1.2): create only, never replace.
      const createOnly = request.headers['if-none-match'] === '*';
      const { provider, created } = await ssoProviders.put(request.params.project_id, request.params.provider_id, request.body, { createOnly, actor: actorRefOf(principalOf(request)) });
      return reply.status(created ? 201 : 200).send(provider);
    },
  );

  app.get(
    '/projects/:project_id/sso_providers',
    {
      config: { tenancy: { project: 'params' }, scope: 'project.write' },
      schema: {
        tags: ['sso'],
        summary: 'List upstream identity providers (secrets are never shown)',
        params: ProjectParams,
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: { 200: listOf('sso_providers', SsoProviderSchema) },
      },
    },
    async (request) => {
      const page = await ssoProviders.list(request.params.project_id, { limit: request.query.limit, pageToken: request.query.page_token });
      return listBody('sso_providers', page);
    },
  );

  app.get(
    '/projects/:project_id/sso_providers/:provider_id',
    {
      config: { tenancy: { project: 'params' }, scope: 'project.write' },
      schema: {
        tags: ['sso'],
        summary: 'Read an upstream identity provider',
        params: ProviderParams,
        response: { 200: SsoProviderSchema, 404: ErrorBody },
      },
    },
    async (request) => {
      return ssoProviders.get(request.params.project_id, request.params.provider_id);
    },
  );

  app.delete(
    '/projects/:project_id/sso_providers/:provider_id',
    {
      config: { tenancy: { project: 'params' }, scope: 'project.write', emits: ['sso_provider.deleted'] },
      schema: {
        tags: ['sso'],
        summary: 'Delete an upstream identity provider (idempotent)',
        params: ProviderParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await ssoProviders.delete(request.params.project_id, request.params.provider_id, actorRefOf(principalOf(request)));
      return reply.status(204).send(null);
    },
  );
}
