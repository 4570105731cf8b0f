import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../core/clock.js';
import { projectScope } from '../core/principal.js';
import { principalOf } from '../http/auth.js';
import { actorRefOf } from '../schemas/caller.js';
import { setCookieUntil } from '../http/cookies.js';
import { ErrorBody, Id, NoContent, ProjectIdQuery, listBody, listOf } from '../http/schemas.js';
import { SESSION_COOKIE } from './cookie.js';
import type { SessionService } from './service.js';
import type { ExchangeService } from './service.exchange.js';
import { idempotencyKeyOf } from './idempotency.js';
import { IssuedSessionSchema, SessionIdParams, SessionListItemSchema, SessionSchema } from './routes.schemas.js';
import { sessionQueryRoute } from './routes.query.js';

const MetadataSchema = Type.Object({}, { additionalProperties: true, maxProperties: 50 });

export interface SessionRouteDeps {
  clock: Clock;
  sessions: SessionService;
  exchange: ExchangeService;
}

/** Sets `__service_session` for the issued token; Max-Age runs until the session expires. */
function deliverToken(request: FastifyRequest, reply: FastifyReply, clock: Clock, token: string, expiresAt: Date): void {
  setCookieUntil(request, reply, SESSION_COOKIE, token, clock.now(), expiresAt);
}

/** The project a by-id operation is scoped to: the caller's own, or any for the admin token. */
function scopeOf(request: FastifyRequest): string | undefined {
  return projectScope(principalOf(request));
}

export function sessionRoutes(root: FastifyInstance, deps: SessionRouteDeps): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { clock, sessions, exchange } = deps;

  app.post(
    '/sessions',
    {
      config: { tenancy: { project: 'body' }, scope: 'session.write', emits: [], emitsNone: 'an anonymous shell is no event: a session enters the log when a user signs in (session.created at the exchange)' },
      schema: {
        tags: ['sessions'],
        summary: 'Create an anonymous session shell (state building, 10 minutes)',
        body: Type.Object(
          {
            project_id: Id('The project'),
            fingerprint: Type.Optional(Type.String({ maxLength: 512, description: 'Client fingerprint, recorded in user_agent' })),
            metadata: Type.Optional(MetadataSchema),
          },
          { additionalProperties: false },
        ),
        response: { 201: IssuedSessionSchema },
      },
    },
    async (request, reply) => {
      const { project_id, fingerprint, metadata } = request.body;
      // request.ip honours forwarding headers only from GATEHOUSE_TRUSTED_PROXIES (Fastify trustProxy).
      const issued = await sessions.createAnonymous(project_id, { fingerprint, ip: request.ip, metadata: metadata as Record<string, unknown> | undefined });
      deliverToken(request, reply, clock, issued.session_token, new Date(issued.session.expires_at));
      return reply.status(201).send(issued);
    },
  );

  app.post(
    '/sessions/exchange',
    {
      config: { tenancy: { project: 'query' }, scope: 'session.write', emits: ['session.created', 'login.succeeded'] },
      schema: {
        tags: ['sessions'],
        summary: 'Exchange a handoff token for a session (new, shell upgrade or step-up)',
        description: 'Optional header `Idempotency-Key`: a retry with the same key within 5 minutes returns the same payload.',
        querystring: ProjectIdQuery,
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
        body: Type.Object(
          {
            handoff_token: Type.String({ minLength: 1, maxLength: 512 }),
            ttl: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'ISO 8601 duration, e.g. PT8H' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: IssuedSessionSchema, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const projectId = request.query.project_id;
      const result = await exchange.exchange(projectId, {
        handoffToken: request.body.handoff_token,
        ttl: request.body.ttl,
        idempotencyKey: idempotencyKeyOf(request.headers),
      });
      deliverToken(request, reply, clock, result.session_token, result.expiresAt);
      return reply.status(200).send({ session: result.session, session_token: result.session_token });
    },
  );

  app.get(
    '/sessions',
    {
      config: { tenancy: { project: 'query' }, scope: ['sessions.read', 'session.read'] },
      schema: {
        tags: ['sessions'],
        summary: 'List sessions of a project (every state), newest last',
        querystring: Type.Object(
          {
            project_id: Id('The project'),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
            page_token: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
            state: Type.Optional(Type.Union([Type.Literal('building'), Type.Literal('active'), Type.Literal('expired')])),
            user_id: Type.Optional(Id('Only sessions of this user')),
          },
          { additionalProperties: false },
        ),
        response: { 200: listOf('sessions', SessionListItemSchema) },
      },
    },
    async (request) => {
      const { project_id, limit, page_token, state, user_id } = request.query;
      const page = await sessions.list(project_id, { filter: { state, userId: user_id }, limit, pageToken: page_token });
      return listBody('sessions', page);
    },
  );

  sessionQueryRoute(root, deps);

  app.get(
    '/sessions/:session_id',
    {
      config: { tenancy: 'resource', scope: 'session.read' },
      schema: { tags: ['sessions'], summary: 'Read a session', params: SessionIdParams, response: { 200: SessionSchema } },
    },
    async (request) => sessions.get(scopeOf(request), request.params.session_id),
  );

  app.delete(
    '/sessions/:session_id',
    {
      config: { tenancy: 'resource', scope: 'session.delete', emits: ['session.revoked'] },
      schema: {
        tags: ['sessions'],
        summary: 'Revoke a session (idempotent: 204 also for unknown ids)',
        params: SessionIdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      // Another project's session is left alone and answered like an unknown id (no oracle).
      await sessions.delete(scopeOf(request), request.params.session_id, { actor: actorRefOf(principalOf(request)), reason: 'revoked' });
      return reply.status(204).send(null);
    },
  );
}
