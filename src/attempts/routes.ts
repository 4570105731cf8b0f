import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AttemptService } from './service.js';
import { AppError, MESSAGES } from '../core/errors.js';
import { projectScope } from '../core/principal.js';
import { principalOf } from '../http/auth.js';
import { ErrorBody, Timestamp } from '../http/schemas.js';
import { idempotencyKeyOf } from '../sessions/idempotency.js';

const HandoffSchema = Type.Object({
  auth_attempt_id: Type.String(),
  handoff_token: Type.String({ description: 'Single use, exchange at POST /sessions/exchange within 60 seconds' }),
  handoff_token_expires_at: Timestamp,
});

export interface AttemptRouteDeps {
  attempts: AttemptService;
}

export function attemptRoutes(root: FastifyInstance, { attempts }: AttemptRouteDeps): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/auth_attempts/:id/handoff',
    {
      config: { tenancy: 'resource', scope: 'auth_attempt.write', emits: [], emitsNone: 'a step of a sign-in: the exchange that spends the handoff token writes session.created and login.succeeded' },
      schema: {
        tags: ['sessions'],
        summary: 'Mint the handoff token of a completed auth attempt',
        description:
          'Only for a completed attempt (409 att.not_completed). A second call answers 409 att.already_handed_off, ' +
          'unless it repeats the Idempotency-Key of the first within 5 minutes: then the same token is returned.',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
        response: { 201: HandoffSchema, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const id = request.params.id;
      const projectId = projectScope(principal) ?? (await attempts.projectOf(id));
      if (projectId === undefined) throw new AppError('att.not_found', MESSAGES.attemptNotFound);
      const handoff = await attempts.handoff(projectId, id, { idempotencyKey: idempotencyKeyOf(request.headers) });
      return reply.status(201).send(handoff);
    },
  );
}
