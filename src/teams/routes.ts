import { tenantOf } from '../http/tenancy.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TeamService } from './service.js';
import { projectScope } from '../core/principal.js';
import { principalOf } from '../http/auth.js';
import { actorRefOf } from '../schemas/caller.js';
import { ErrorBody, Id, listBody, listOf, NoContent, PageQuery, ProjectIdQuery, Timestamp } from '../http/schemas.js';

export const TeamSchema = Type.Object({
  id: Type.String(),
  project_id: Type.String(),
  name: Type.String(),
  status: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export interface TeamRouteDeps {
  teams: TeamService;
}

export function teamRoutes(root: FastifyInstance, { teams }: TeamRouteDeps): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/teams',
    {
      config: { tenancy: { project: 'query' }, scope: 'team.write', emits: ['team.created'] },
      schema: {
        tags: ['teams'],
        summary: 'Create a team',
        querystring: ProjectIdQuery,
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
        response: { 201: TeamSchema, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      return reply.status(201).send(await teams.create(request.query.project_id, request.body.name, actorRefOf(principalOf(request))));
    },
  );

  app.get(
    '/teams/:team_id',
    {
      config: { tenancy: 'resource', scope: 'team.read' },
      schema: {
        tags: ['teams'],
        summary: 'Read a team',
        params: Type.Object({ team_id: Id() }),
        response: { 200: TeamSchema },
      },
    },
    async (request) => {
      return teams.get(projectScope(principalOf(request)), request.params.team_id);
    },
  );

  app.delete(
    '/teams/:team_id',
    {
      config: { tenancy: 'resource', scope: 'team.write', emits: ['team.deleted'] },
      schema: {
        tags: ['teams'],
        summary: 'Delete a team that owns no user schema and no user (409 team.in_use otherwise)',
        params: Type.Object({ team_id: Id() }),
        response: { 204: NoContent, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await teams.delete(projectScope(principal), request.params.team_id, actorRefOf(principal));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/teams',
    {
      config: { tenancy: { project: 'query' }, scope: 'team.read' },
      schema: {
        tags: ['teams'],
        summary: "List the project's teams, oldest first",
        querystring: Type.Object({ ...PageQuery, project_id: Type.Optional(Id('The project (required with the admin token)')) }, { additionalProperties: false }),
        response: { 200: listOf('teams', TeamSchema) },
      },
    },
    async (request) => {
      const projectId = tenantOf(request);
      return listBody('teams', await teams.list(projectId, { limit: request.query.limit, pageToken: request.query.page_token }));
    },
  );
}
