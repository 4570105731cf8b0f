import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../core/errors.js';
import { Id, ProjectIdQuery, Timestamp, listBody, listOf } from '../http/schemas.js';
import { SessionListItemSchema, SessionStateSchema } from './routes.schemas.js';
import type { SessionService } from './service.js';

export const SessionQueryBody = Type.Object(
  {
    user_id: Type.Optional(Id('Only sessions of this user')),
    state: Type.Optional(SessionStateSchema),
    created_after: Type.Optional(Timestamp),
    created_before: Type.Optional(Timestamp),
    lifecycle_owner_team_id: Type.Optional(Id("Only sessions whose user's lifecycle owner team is this one")),
    sort: Type.Optional(
      Type.Object(
        {
          field: Type.Literal('created_at'),
          direction: Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc' }),
        },
        { additionalProperties: false },
      ),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    page_token: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  },
  { additionalProperties: false },
);

function dateOf(value: string | undefined, path: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new AppError('req.invalid', 'The request is invalid.', { errors: [{ path, message: 'must be a date-time' }] });
  return date;
}

export interface SessionQueryRouteDeps {
  sessions: SessionService;
}

/** POST /sessions/query: the filtered, sorted form of GET /sessions (`{}` lists everything). */
export function sessionQueryRoute(root: FastifyInstance, { sessions }: SessionQueryRouteDeps): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/sessions/query',
    {
      config: { tenancy: { project: 'query' }, scope: 'session.read', emits: [], emitsNone: 'a read whose filters travel in the body' },
      schema: {
        tags: ['sessions'],
        summary: 'Query sessions with filters, sorted by created_at',
        querystring: ProjectIdQuery,
        body: SessionQueryBody,
        response: { 200: listOf('sessions', SessionListItemSchema) },
      },
    },
    async (request) => {
      const projectId = request.query.project_id;
      const body = request.body;
      const page = await sessions.list(projectId, {
        filter: {
          userId: body.user_id,
          state: body.state,
          createdAfter: dateOf(body.created_after, 'body/created_after'),
          createdBefore: dateOf(body.created_before, 'body/created_before'),
          lifecycleOwnerTeamId: body.lifecycle_owner_team_id,
        },
        direction: body.sort?.direction ?? 'asc',
        limit: body.limit,
        pageToken: body.page_token,
      });
      return listBody('sessions', page);
    },
  );
}
