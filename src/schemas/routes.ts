import { tenantOf } from '../http/tenancy.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TeamService } from '../teams/service.js';
import { AppError, notFoundError } from '../core/errors.js';
import { principalOf } from '../http/auth.js';
import { ErrorBody, Id, listBody, listOf, PageQuery, Timestamp } from '../http/schemas.js';
import { actorRefOf, projectScopeOf } from './caller.js';
import { toSchemaView, type SchemaService } from './service.js';

export const SchemaResource = Type.Object({
  id: Type.String(),
  schema: Type.Object({}, { additionalProperties: true, description: 'The document, verbatim' }),
  metadata: Type.Object({ created_at: Timestamp }),
});

const SchemaDocument = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'A user schema (JSON Schema 2020-12 with x-auth-methods, x-unique, x-claim, x-audit), or `{"kind": "schema-url", "url": "..."}` naming one',
  },
);

export interface SchemaRouteDeps {
  schemas: SchemaService;
  teams: TeamService;
}

export function schemaRoutes(root: FastifyInstance, { schemas, teams }: SchemaRouteDeps): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/schemas',
    {
      config: { tenancy: { project: 'query' }, scope: 'schema.write', emits: ['schema.created'] },
      schema: {
        tags: ['schemas'],
        summary: 'Store a new immutable revision of a user schema',
        querystring: Type.Object({ project_id: Id('The project'), team_id: Type.Optional(Id('The owning team')) }, { additionalProperties: false }),
        body: SchemaDocument,
        response: { 201: Type.Object({ id: Type.String() }), 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { project_id: projectId, team_id: teamId } = request.query;
      if (teamId !== undefined && !(await teams.exists(projectId, teamId))) throw notFoundError('team.not_found');
      const document = request.body as Record<string, unknown>;
      if (document.kind === 'schema-url') {
        const url = document.url ?? document.$ref;
        if (typeof url !== 'string') {
          throw new AppError('sch.invalid', 'The schema is not a valid user schema.', {
            errors: [{ path: 'schema/url', message: 'a schema-url needs a url' }],
          });
        }
        return reply.status(201).send({ id: (await schemas.createFromUrl(projectId, url)).id });
      }
      const created = await schemas.create(projectId, document, { teamId, actor: actorRefOf(principalOf(request)) });
      return reply.status(201).send({ id: created.id });
    },
  );

  app.get(
    '/schemas',
    {
      config: { tenancy: { project: 'query' }, scope: 'schema.read' },
      schema: {
        tags: ['schemas'],
        summary: 'List schema revisions: every revision, or the newest of each objectType',
        querystring: Type.Object(
          {
            ...PageQuery,
            project_id: Type.Optional(Id('The project (required with the admin token)')),
            revisions: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('latest')], { default: 'all' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: listOf('schemas', SchemaResource) },
      },
    },
    async (request) => {
      const projectId = tenantOf(request);
      const page = await schemas.list(projectId, request.query.revisions ?? 'all', {
        limit: request.query.limit,
        pageToken: request.query.page_token,
      });
      return listBody('schemas', page);
    },
  );

  app.get(
    '/schemas/:id',
    {
      config: { tenancy: 'resource', scope: 'schema.read' },
      schema: {
        tags: ['schemas'],
        summary: 'Read one schema revision',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 2048, description: 'Revision id, or the URL-encoded $id' }) }),
        querystring: Type.Object({ team_id: Type.Optional(Id()) }, { additionalProperties: false }),
        response: { 200: SchemaResource },
      },
    },
    async (request) => {
      const schema = await schemas.get(projectScopeOf(principalOf(request)), request.params.id, request.query.team_id);
      return toSchemaView(schema);
    },
  );
}
