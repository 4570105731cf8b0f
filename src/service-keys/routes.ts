import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { ServiceKeyService } from './service.js';
import { SCOPES } from '../core/scopes.js';
import { principalOf } from '../http/auth.js';
import { actorRefOf } from '../schemas/caller.js';
import { Id, listBody, listOf, NoContent, PageQuery, Timestamp } from '../http/schemas.js';

export const ServiceKeySchema = Type.Object({
  id: Type.String(),
  project_id: Type.String(),
  name: Type.String(),
  client_id: Type.String(),
  scopes: Type.Array(Type.String()),
  created_at: Timestamp,
});

const CreatedServiceKeySchema = Type.Object({
  ...ServiceKeySchema.properties,
  client_secret: Type.String({ description: 'Shown once; stored only as a hash' }),
});

const ProjectParams = Type.Object({ project_id: Id() });

export interface ServiceKeyRouteDeps {
  serviceKeys: ServiceKeyService;
}

export function serviceKeyRoutes(root: FastifyInstance, { serviceKeys }: ServiceKeyRouteDeps): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/projects/:project_id/service_keys',
    {
      config: { tenancy: { project: 'params' }, scope: 'project.write', emits: ['service_key.created'] },
      schema: {
        tags: ['service keys'],
        summary: 'Create a service key (an OAuth2 client of the project)',
        params: ProjectParams,
        body: Type.Object(
          {
            name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            scopes: Type.Array(Type.String({ enum: [...SCOPES] }), { minItems: 1, maxItems: SCOPES.length, uniqueItems: true }),
          },
          { additionalProperties: false },
        ),
        response: { 201: CreatedServiceKeySchema },
      },
    },
    async (request, reply) => {
      return reply.status(201).send(await serviceKeys.create(request.params.project_id, request.body, actorRefOf(principalOf(request))));
    },
  );

  app.get(
    '/projects/:project_id/service_keys',
    {
      config: { tenancy: { project: 'params' }, scope: 'project.write' },
      schema: {
        tags: ['service keys'],
        summary: 'List service keys (secrets are never shown again)',
        params: ProjectParams,
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: { 200: listOf('service_keys', ServiceKeySchema) },
      },
    },
    async (request) => {
      const page = await serviceKeys.list(request.params.project_id, { limit: request.query.limit, pageToken: request.query.page_token });
      return listBody('service_keys', page);
    },
  );

  app.delete(
    '/projects/:project_id/service_keys/:key_id',
    {
      config: { tenancy: { project: 'params' }, scope: 'project.write', emits: ['service_key.deleted'] },
      schema: {
        tags: ['service keys'],
        summary: 'Delete a service key (idempotent)',
        params: Type.Object({ project_id: Id(), key_id: Id() }),
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await serviceKeys.delete(request.params.project_id, request.params.key_id, actorRefOf(principalOf(request)));
      return reply.status(204).send(null);
    },
  );
}
