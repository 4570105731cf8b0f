import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { ProjectService } from './service.js';
import { type Principal } from '../core/principal.js';
import { ADMIN_SCOPE, OPERATOR_SCOPE } from '../core/scopes.js';
import { principalOf } from '../http/auth.js';
import { actorRefOf } from '../schemas/caller.js';
import { AppError } from '../core/errors.js';
import { Id, listBody, listOf, NoContent, PageQuery, Timestamp } from '../http/schemas.js';

const Origin = Type.String({ format: 'uri', pattern: '^https?://[^/]+$', maxLength: 300, description: 'An origin such as https://app.example.com' });

export const ProjectSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  preview_origins: Type.Array(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const CreatedProjectSchema = Type.Object({
  ...ProjectSchema.properties,
  project_secret: Type.String({ description: 'Shown once; stored only as a hash' }),
  preview_secret: Type.String({ description: 'Shown once; stored only as a hash' }),
});

const ProjectParams = Type.Object({ project_id: Id() });

export const RotatedSecretSchema = Type.Object({
  project_secret: Type.String({ description: 'The new secret: shown once; stored only as a hash' }),
  previous_valid_until: Timestamp,
});

/**
 * Rotating hands out the project's root credential, so only that credential itself (or the
 * instance admin) may do it: a service key holding `project.write` must not trade itself up.
 */
function assertMayRotate(principal: Principal): void {
  // A project admin's project token (`via: 'operator'`) is the project secret's equal (docs/operators.md).
  if (principal.kind === 'admin' || (principal.kind === 'project' && (principal.via === 'project_secret' || principal.via === 'operator'))) return;
  throw new AppError('auth.forbidden', 'Only the project secret, an operator\'s project token or the instance admin token may rotate the project secret.', { required_scope: 'project.write' });
}

export interface ProjectRouteDeps {
  projects: ProjectService;
}

export function projectRoutes(root: FastifyInstance, { projects }: ProjectRouteDeps): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/projects',
    {
      config: { tenancy: 'instance', scope: ADMIN_SCOPE, emits: ['project.created'] },
      schema: {
        tags: ['projects'],
        summary: 'Create a project (instance admin token)',
        body: Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 200 }),
            preview_origins: Type.Optional(Type.Array(Origin, { maxItems: 20, uniqueItems: true })),
          },
          { additionalProperties: false },
        ),
        response: { 201: CreatedProjectSchema },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const created = await projects.create({ name: body.name.trim() || body.name, preview_origins: body.preview_origins }, { actor: actorRefOf(principalOf(request)) });
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/projects/:project_id',
    {
      config: { tenancy: { project: 'params' }, scope: ['project.write', 'project.read'] },
      schema: {
        tags: ['projects'],
        summary: 'Read a project (without its secrets)',
        params: Type.Object({ project_id: Id() }),
        response: { 200: ProjectSchema },
      },
    },
    async (request) => {
      return projects.get(request.params.project_id);
    },
  );

  app.get(
    '/projects',
    {
      // `credential`: the admin lists every project; a project admin operator's token names theirs.
      config: { tenancy: 'credential', scope: [ADMIN_SCOPE, OPERATOR_SCOPE] },
      schema: {
        tags: ['projects'],
        summary: 'List every project, oldest first (instance admin token; a project admin operator: their projects)',
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: { 200: listOf('projects', ProjectSchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const page = { limit: request.query.limit, pageToken: request.query.page_token };
      if (principal.kind === 'admin') return listBody('projects', await projects.list(page));
      if (principal.kind === 'operator') return listBody('projects', await projects.list(page, { holder: principal.userId, ids: principal.projects }));
      throw new AppError('auth.forbidden', 'The credential does not hold the scope this operation needs.', { required_scope: ADMIN_SCOPE });
    },
  );

  app.patch(
    '/projects/:project_id',
    {
      config: { tenancy: { project: 'params' }, scope: 'project.write', emits: ['project.updated'] },
      schema: {
        tags: ['projects'],
        summary: 'Rename a project or replace its preview origins',
        params: ProjectParams,
        body: Type.Object(
          {
            name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            preview_origins: Type.Optional(Type.Array(Origin, { maxItems: 20, uniqueItems: true })),
          },
          { additionalProperties: false },
        ),
        response: { 200: ProjectSchema },
      },
    },
    async (request) => {
      const { project_id } = request.params;
      const { name, preview_origins } = request.body;
      return projects.update(project_id, { name: name === undefined ? undefined : name.trim() || name, preview_origins }, actorRefOf(principalOf(request)));
    },
  );

  app.post(
    '/projects/:project_id/rotate_secret',
    {
      config: { tenancy: { project: 'params' }, scope: 'project.write', emits: ['project.secret_rotated'] },
      schema: {
        tags: ['projects'],
        summary: 'Issue a new project secret; the old one works until previous_valid_until (24 h)',
        params: ProjectParams,
        response: { 200: RotatedSecretSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      assertMayRotate(principal);
      return projects.rotateSecret(request.params.project_id, actorRefOf(principal));
    },
  );

  app.delete(
    '/projects/:project_id',
    {
      config: { tenancy: { project: 'params' }, scope: ADMIN_SCOPE, emits: ['project.deleted'] },
      schema: {
        tags: ['projects'],
        summary: 'Delete a project and everything in it, in one transaction (instance admin token)',
        params: ProjectParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await projects.delete(request.params.project_id, actorRefOf(principalOf(request)));
      return reply.status(204).send(null);
    },
  );
}
