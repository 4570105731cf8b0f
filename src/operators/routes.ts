import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../core/errors.js';
import { ADMIN_SCOPE, OPERATOR_SCOPE } from '../core/scopes.js';
import { principalOf } from '../http/auth.js';
import { actorRefOf } from '../schemas/caller.js';
import { ErrorBody, Id, listBody, listOf, NoContent, PageQuery, Timestamp } from '../http/schemas.js';
import { tenantOf } from '../http/tenancy.js';
import type { ConsoleAccess } from './console-access.js';
import type { OperatorService } from './service.js';

const Role = Type.Union([Type.Literal('instance_admin'), Type.Literal('project_admin')], { description: '`instance_admin` (every project) or `project_admin` (one project)' });

export const RoleGrantSchema = Type.Object({
  user_id: Type.String({ description: 'A user of the system project' }),
  role: Role,
  project_id: Type.Union([Type.String(), Type.Null()], { description: 'The project of a project admin; null for an instance admin' }),
  granted_at: Timestamp,
});

/** The operator behind the request: the scope admits only a project admin or an instance admin operator. */
function operatorOf(request: FastifyRequest): string {
  const principal = principalOf(request);
  const userId = principal.kind === 'operator' ? principal.userId : principal.kind === 'admin' ? principal.operator : undefined;
  if (userId === undefined) throw new AppError('auth.forbidden', 'Only an operator signed in through the system project has this.', { required_scope: OPERATOR_SCOPE });
  return userId;
}

const UserParams = Type.Object({ user_id: Id('A user of the system project') });

export interface OperatorRouteDeps {
  operators: OperatorService;
  consoleAccess: Pick<ConsoleAccess, 'cliClient'>;
}

/** Operators and their roles (docs/operators.md); the roles are the instance admin's to give. */
export function operatorRoutes(root: FastifyInstance, { operators, consoleAccess }: OperatorRouteDeps): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['operators'];

  app.get(
    '/operators',
    {
      config: { tenancy: 'instance', scope: ADMIN_SCOPE },
      schema: {
        tags,
        summary: 'List the operators\' roles, oldest grant first (instance admin)',
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: { 200: listOf('roles', RoleGrantSchema) },
      },
    },
    async (request) => listBody('roles', await operators.list({ limit: request.query.limit, pageToken: request.query.page_token })),
  );

  app.get(
    '/operators/system_project',
    {
      config: { tenancy: 'instance', scope: ADMIN_SCOPE },
      schema: {
        tags,
        summary: 'The system project, whose users are the operators; created on first call (instance admin)',
        response: { 200: Type.Object({ project_id: Type.String() }) },
      },
    },
    async () => ({ project_id: await operators.systemProject() }),
  );

  app.get(
    '/operators/cli_client',
    {
      // `gatehouse login` asks which client to sign in with; client ids are no secret (a public client).
      config: { tenancy: 'public' },
      schema: {
        tags,
        summary: 'The public OAuth client `gatehouse login` signs operators in with (device authorization grant); made with the system project on first call',
        response: { 200: Type.Object({ client_id: Type.String(), project_id: Type.String({ description: 'The system project' }) }) },
      },
    },
    async (_request, reply) => {
      const client = await consoleAccess.cliClient();
      return reply.header('cache-control', 'no-store').send({ client_id: client.clientId, project_id: client.projectId });
    },
  );

  app.put(
    '/operators/:user_id/roles',
    {
      config: { tenancy: 'instance', scope: ADMIN_SCOPE, emits: ['operator.role_granted'] },
      schema: {
        tags,
        summary: 'Grant a system-project user a role (instance admin; granting a held role changes nothing)',
        params: UserParams,
        body: Type.Object(
          {
            role: Role,
            project_id: Type.Optional(Id('The project of a project_admin role; absent for instance_admin')),
          },
          { additionalProperties: false },
        ),
        response: { 200: RoleGrantSchema },
      },
    },
    async (request) => operators.grant(request.params.user_id, request.body.role, request.body.project_id, actorRefOf(principalOf(request))),
  );

  app.delete(
    '/operators/:user_id/roles',
    {
      config: { tenancy: 'instance', scope: ADMIN_SCOPE, emits: ['operator.role_revoked'] },
      schema: {
        tags,
        summary: 'Revoke a role: the project admin role of project_id, or without it the instance admin role (never the last one)',
        params: UserParams,
        querystring: Type.Object({ project_id: Type.Optional(Id('The project of the project_admin role to revoke')) }, { additionalProperties: false }),
        response: { 204: NoContent, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      await operators.revoke(request.params.user_id, request.query.project_id, actorRefOf(principalOf(request)));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/operators/me',
    {
      // The console asks who is signed in and what they may do; only an operator's own token answers.
      config: { tenancy: 'credential', scope: OPERATOR_SCOPE },
      schema: {
        tags,
        summary: 'The calling operator: their system-project user and roles',
        response: { 200: Type.Object({ user_id: Type.String(), roles: Type.Array(RoleGrantSchema) }) },
      },
    },
    async (request) => {
      const userId = operatorOf(request);
      return { user_id: userId, roles: await operators.rolesOf(userId) };
    },
  );

  app.post(
    '/operators/me/project_tokens',
    {
      // An operator signed in through the system project; the admin token and project credentials need none.
      config: { tenancy: { project: 'body' }, scope: OPERATOR_SCOPE, emits: [], emitsNone: 'mints a 5-minute token and stores nothing; the changes made with it are events naming the operator' },
      schema: {
        tags,
        summary: 'Mint a 5-minute project token for a project the calling operator administers',
        body: Type.Object({ project_id: Id('A project the operator administers') }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            token: Type.String({ description: 'A bearer credential of the project (gh_op_…), as the project secret' }),
            expires_at: Timestamp,
          }),
        },
      },
    },
    async (request) => operators.mintProjectToken(operatorOf(request), tenantOf(request)),
  );
}
