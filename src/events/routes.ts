import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../core/errors.js';
import { tenantOf } from '../http/tenancy.js';
import { Id, listBody, listOf, Timestamp } from '../http/schemas.js';
import type { EventLog } from './service.js';
import { EVENT_TYPES, isEventType } from './types.js';

const Party = (what: string) =>
  Type.Object({
    kind: Type.String({ description: what }),
    id: Type.Union([Type.String(), Type.Null()]),
  });

export const EventSchema = Type.Object({
  id: Type.String({ description: 'evt_…; also the webhook-id of its deliveries' }),
  type: Type.String({ description: 'One of the catalogue of docs/events.md' }),
  occurred_at: Timestamp,
  project_id: Type.String(),
  actor: Party('`admin`, `project_secret`, `service_key` (id: its client id), `operator` (id: the operator\'s user id), `self` (id: the user), `system`'),
  subject: Party('What the event is about: `user`, `session`, `project`, `schema`, `flow_definition`, `team`, `sso_provider`, `oauth_client`, `service_key`, `operator`, `webhook`'),
  data: Type.Object({}, { additionalProperties: true, description: "The type's fields (docs/events.md); never a secret" }),
});

/** At most this many types in one `type` filter. */
const MAX_TYPES = 20;

const EventQuery = Type.Object(
  {
    project_id: Type.Optional(Id('The project (required with the admin token)')),
    type: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'Only events of this type, or of these (comma-separated, at most 20)' })),
    subject_id: Type.Optional(Id('Only events about this user, session, client...')),
    actor_id: Type.Optional(Id('Only events of this actor (an operator\'s user id, a service key\'s client id, a user acting on itself)')),
    since: Type.Optional(Type.String({ format: 'date-time', description: 'Only events at or after this time' })),
    until: Type.Optional(Type.String({ format: 'date-time', description: 'Only events before this time' })),
    page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Events per page (default 20)' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Another name for page_size, as the other lists call it' })),
    page_token: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  },
  { additionalProperties: false },
);

function invalid(path: string, message: string): AppError {
  return new AppError('req.invalid', 'The request is invalid.', { errors: [{ path, message }] });
}

function dateOf(value: string | undefined, path: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw invalid(path, 'must be a date-time');
  return date;
}

function typesOf(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const types = [...new Set(value.split(',').map((type) => type.trim()))];
  if (types.length > MAX_TYPES) throw invalid('querystring/type', `must name at most ${MAX_TYPES} types`);
  const unknown = types.filter((type) => !isEventType(type));
  if (unknown.length > 0) throw new AppError('req.invalid', 'The request is invalid.', { errors: unknown.map((type) => ({ path: 'querystring/type', message: `unknown event type "${type.slice(0, 100)}"` })), known_types: EVENT_TYPES });
  return types;
}

export interface EventRouteDeps {
  events: EventLog;
}

/** GET /events (scope `event.read`): a project's event log, newest first, with filters and cursor paging. */
export function eventRoutes(root: FastifyInstance, { events }: EventRouteDeps): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/events',
    {
      config: { tenancy: { project: 'query' }, scope: 'event.read' },
      schema: {
        tags: ['events'],
        summary: "A project's event log, newest first (docs/events.md)",
        querystring: EventQuery,
        response: { 200: listOf('events', EventSchema) },
      },
    },
    async (request) => {
      const { query } = request;
      if (query.page_size !== undefined && query.limit !== undefined && query.page_size !== query.limit) throw invalid('querystring/limit', 'must equal page_size when both are given');
      const since = dateOf(query.since, 'querystring/since');
      const until = dateOf(query.until, 'querystring/until');
      if (since !== undefined && until !== undefined && since.getTime() > until.getTime()) throw invalid('querystring/until', 'must not be before since');
      const filter = { types: typesOf(query.type), subjectId: query.subject_id, actorId: query.actor_id, since, until };
      const page = await events.list(tenantOf(request), filter, { limit: query.page_size ?? query.limit, pageToken: query.page_token });
      return listBody('events', page);
    },
  );
}
