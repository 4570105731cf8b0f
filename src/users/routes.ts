import { tenantOf } from '../http/tenancy.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { PasswordService } from '../passwords/service.js';
import { principalOf } from '../http/auth.js';
import { ErrorBody, Id, listBody, listOf, NoContent, PageQuery, Timestamp } from '../http/schemas.js';
import { actorRefOf, projectScopeOf } from '../schemas/caller.js';
import { toUserResource, type UserService } from './service.js';

export const UserResource = Type.Object({
  id: Type.String(),
  schema: Type.String({ description: 'The user schema the attributes satisfy (as given on creation)' }),
  attributes: Type.Object({}, { additionalProperties: true }),
  metadata: Type.Object({
    created_at: Timestamp,
    updated_at: Timestamp,
    status: Type.String(),
    lifecycle_owner_team_id: Type.Optional(Type.String()),
    verified: Type.Optional(
      Type.Record(Type.String(), Timestamp, { description: 'Attribute paths the user proved to own with a mailed code or link, and when (e.g. `{"email": "2026-…"}`)' }),
    ),
  }),
});

const AuditEventResource = Type.Object({
  id: Type.String(),
  attribute: Type.String({ description: 'Dotted attribute path, or `password`' }),
  action: Type.String({ description: '`set`, `changed` or `removed`' }),
  actor: Type.String({ description: '`admin`, `project_secret`, `operator:<user id>`, `service_key:<client id>`, `self`, `system`' }),
  created_at: Timestamp,
});

const UserParams = Type.Object({ user_id: Id() });

export interface UserRouteDeps {
  users: UserService;
  passwords: PasswordService;
}

export function userRoutes(root: FastifyInstance, { users, passwords }: UserRouteDeps): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/users',
    {
      config: { tenancy: { project: 'query' }, scope: 'user.write', emits: ['user.created'] },
      schema: {
        tags: ['users'],
        summary: 'Create a user whose attributes satisfy a user schema',
        querystring: Type.Object(
          { project_id: Type.Optional(Id('The project (required with the admin token)')), team_id: Type.Optional(Id('Lifecycle owner team')) },
          { additionalProperties: false },
        ),
        body: Type.Object(
          {
            schema: Type.String({ minLength: 1, maxLength: 2048, description: 'Schema revision id or $id URL' }),
            attributes: Type.Object({}, { additionalProperties: true }),
          },
          { additionalProperties: false },
        ),
        response: { 201: UserResource, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const projectId = tenantOf(request);
      const body = { schema: request.body.schema, attributes: request.body.attributes as Record<string, unknown> };
      const user = await users.create(projectId, body, { teamId: request.query.team_id, actor: actorRefOf(principal) });
      return reply.status(201).send(toUserResource(user));
    },
  );

  app.get(
    '/users',
    {
      config: { tenancy: { project: 'query' }, scope: 'user.read' },
      schema: {
        tags: ['users'],
        summary: "List the project's users, oldest first",
        querystring: Type.Object(
          {
            ...PageQuery,
            project_id: Type.Optional(Id('The project (required with the admin token)')),
            identifier: Type.Optional(Type.String({ minLength: 1, maxLength: 320, description: 'Only the user with this identifier (e-mail, username...; compared after normalisation, as at sign-in): zero or one result' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: listOf('users', UserResource) },
      },
    },
    async (request) => {
      const projectId = tenantOf(request);
      if (request.query.identifier !== undefined) {
        const found = await users.findByIdentifier(projectId, undefined, request.query.identifier);
        return listBody('users', { items: found ? [toUserResource(found)] : [], nextPageToken: undefined });
      }
      const page = await users.list(projectId, { limit: request.query.limit, pageToken: request.query.page_token });
      return listBody('users', { ...page, items: page.items.map(toUserResource) });
    },
  );

  app.get(
    '/users/:user_id',
    {
      config: { tenancy: 'resource', scope: 'user.read' },
      schema: {
        tags: ['users'],
        summary: 'Read a user',
        params: UserParams,
        querystring: Type.Object({ team_id: Type.Optional(Id('Only if this team owns the user')) }, { additionalProperties: false }),
        response: { 200: UserResource },
      },
    },
    async (request) => {
      const user = await users.get(projectScopeOf(principalOf(request)), request.params.user_id, request.query.team_id);
      return toUserResource(user);
    },
  );

  app.put(
    '/users/:user_id/password',
    {
      config: { tenancy: 'resource', scope: 'user.write', emits: ['credential.added', 'password.changed'] },
      schema: {
        tags: ['users'],
        summary: "Set a user's password (policy-checked, stored as argon2id)",
        params: UserParams,
        body: Type.Object({ password: Type.String({ maxLength: 4096 }) }, { additionalProperties: false }),
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const user = await users.get(projectScopeOf(principal), request.params.user_id);
      await passwords.setPassword(user.projectId, user.id, request.body.password, { actor: actorRefOf(principal) });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/users/:user_id/audit',
    {
      config: { tenancy: 'resource', scope: 'user.read' },
      schema: {
        tags: ['users'],
        summary: 'Audit trail of x-audit attributes and password changes (values are never recorded)',
        params: UserParams,
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: { 200: listOf('events', AuditEventResource) },
      },
    },
    async (request) => {
      const page = await users.auditTrail(projectScopeOf(principalOf(request)), request.params.user_id, {
        limit: request.query.limit,
        pageToken: request.query.page_token,
      });
      return listBody('events', page);
    },
  );
}
