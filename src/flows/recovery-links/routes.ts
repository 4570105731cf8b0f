import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { LANGUAGES } from '../../courier/templates.js';
import { principalOf } from '../../http/auth.js';
import { ErrorBody, Id } from '../../http/schemas.js';
import { actorRefOf, projectScopeOf } from '../../schemas/caller.js';
import type { RecoveryLinkService } from './service.js';

/**
 * `POST /users/{id}/recovery_link`: an operator mails a user a one-time link that signs them in
 * and opens their settings (docs/recovery-links.md). The link goes to the user's own address
 * only; the answer says where it went and until when it works, never the link.
 */
export function recoveryLinkRoutes(root: FastifyInstance, recoveryLinks: RecoveryLinkService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/users/:user_id/recovery_link',
    {
      config: { tenancy: 'resource', scope: 'user.write', emits: ['recovery.requested'] },
      // The body is optional: none means `{}` (curl -X POST with nothing else works).
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags: ['users'],
        summary: "Mail the user a one-time link (1 hour) that signs them in and opens their settings, to set a new password",
        params: Type.Object({ user_id: Id() }),
        body: Type.Object(
          { language: Type.Optional(Type.Union(LANGUAGES.map((language) => Type.Literal(language)), { description: 'The language of the mail (default en)' })) },
          { additionalProperties: false, description: 'Optional: a POST without a body sends the English mail' },
        ),
        response: {
          202: Type.Object(
            {
              sent_to: Type.String({ description: "The user's own stored e-mail address the link was mailed to" }),
              expires_at: Type.String({ format: 'date-time' }),
            },
            { additionalProperties: false },
          ),
          409: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const sent = await recoveryLinks.send(projectScopeOf(principal), request.params.user_id, { language: request.body.language, actor: actorRefOf(principal) });
      return reply.status(202).send(sent);
    },
  );
}
