import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../container.js';
import { ADMIN_SCOPE } from '../core/scopes.js';
import { principalOf } from '../http/auth.js';
import { assertProjectAccess } from '../http/principal.js';
import { Id, Timestamp } from '../http/schemas.js';

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

export function projectRoutes(root: FastifyInstance, { projects }: Container): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/projects',
    {
      config: { scope: ADMIN_SCOPE },
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
      const created = await projects.create({ name: body.name.trim() || body.name, preview_origins: body.preview_origins });
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/projects/:project_id',
    {
      config: { scope: ['project.write', 'project.read'] },
      schema: {
        tags: ['projects'],
        summary: 'Read a project (without its secrets)',
        params: Type.Object({ project_id: Id() }),
        response: { 200: ProjectSchema },
      },
    },
    async (request) => {
      const { project_id } = request.params;
      assertProjectAccess(principalOf(request), project_id);
      return projects.get(project_id);
    },
  );
}
