import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { principalOf } from '../http/auth.js';
import { ErrorBody, Id, NoContent } from '../http/schemas.js';
import { actorRefOf, projectScopeOf } from '../schemas/caller.js';
import { UserResource } from './routes.js';
import { toUserResource, type UserService } from './service.js';
import { unlockUser, type UnlockDeps } from './unlock.js';

const UserParams = Type.Object({ user_id: Id() });

export interface UserManagementRouteDeps extends UnlockDeps {
  users: UserService;
}

/**
 * Management of one user beyond create/read (DESIGN §4.17): replace its attributes, erase it,
 * lift its sign-in lock-out. Another project's user answers 404 `user.not_found`.
 */
export function userManagementRoutes(root: FastifyInstance, deps: UserManagementRouteDeps): void {
  const { users } = deps;
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.patch(
    '/users/:user_id',
    {
      config: { tenancy: 'resource', scope: 'user.write', emits: ['user.updated'] },
      schema: {
        tags: ['users'],
        summary: "Replace a user's attributes (validated against its schema; unique values re-claimed; audited)",
        params: UserParams,
        body: Type.Object({ attributes: Type.Object({}, { additionalProperties: true }) }, { additionalProperties: false }),
        response: { 200: UserResource, 409: ErrorBody },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const user = await users.get(projectScopeOf(principal), request.params.user_id);
      const attributes = request.body.attributes as Record<string, unknown>;
      return toUserResource(await users.updateAttributes(user.projectId, user.id, attributes, { actor: actorRefOf(principal) }));
    },
  );

  app.delete(
    '/users/:user_id',
    {
      config: { tenancy: 'resource', scope: 'user.write', emits: ['user.deleted', 'session.revoked'] },
      schema: {
        tags: ['users'],
        summary: 'Erase a user: its sessions, tokens, attempts and credentials go in the same transaction',
        params: UserParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await users.delete(projectScopeOf(principal), request.params.user_id, actorRefOf(principal));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/users/:user_id/unlock',
    {
      config: { tenancy: 'resource', scope: 'user.write', emits: ['user.unlocked'] },
      schema: {
        tags: ['users'],
        summary: 'Lift the password lock-out (and the "disabled until reset" state) of every identifier of the user',
        params: UserParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await unlockUser(deps, await users.get(projectScopeOf(principal), request.params.user_id), actorRefOf(principal));
      return reply.status(204).send(null);
    },
  );
}
