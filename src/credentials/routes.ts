import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { CredentialService } from './service.js';
import { principalOf } from '../http/auth.js';
import { Id, NoContent, Timestamp } from '../http/schemas.js';
import { actorRefOf, projectScopeOf } from '../schemas/caller.js';

const CredentialResource = Type.Object({
  id: Type.String({ description: 'The credential id (what DELETE takes); for passkeys not the WebAuthn credential ID' }),
  method: Type.String({ description: '`password`, `passkey`...' }),
  name: Type.Union([Type.String(), Type.Null()], { description: 'A label (passkeys named at registration); null when none' }),
  created_at: Timestamp,
  last_used_at: Type.Union([Timestamp, Type.Null()], { description: 'Last successful sign-in with it (passkeys); null when never recorded' }),
});

export interface CredentialRouteDeps {
  userCredentials: CredentialService;
}

/** GET / DELETE /users/{id}/credentials (DESIGN §4.9): every method, never secrets or key material. */
export function credentialRoutes(root: FastifyInstance, { userCredentials }: CredentialRouteDeps): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/users/:user_id/credentials',
    {
      config: { tenancy: 'resource', scope: 'user.read' },
      schema: {
        tags: ['users'],
        summary: "List a user's sign-in credentials of every method (no secrets, hashes or keys)",
        params: Type.Object({ user_id: Id() }),
        response: { 200: Type.Object({ credentials: Type.Array(CredentialResource) }) },
      },
    },
    async (request) => {
      const credentials = await userCredentials.list(projectScopeOf(principalOf(request)), request.params.user_id);
      return { credentials };
    },
  );

  app.delete(
    '/users/:user_id/credentials/:credential_id',
    {
      config: { tenancy: 'resource', scope: 'user.write', emits: ['credential.removed', 'mfa.disabled', 'sso.unlinked'] },
      schema: {
        tags: ['users'],
        summary: "Remove one of a user's credentials (the last one too); audited",
        params: Type.Object({ user_id: Id(), credential_id: Id() }),
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await userCredentials.remove(projectScopeOf(principal), request.params.user_id, request.params.credential_id, actorRefOf(principal));
      return reply.status(204).send(null);
    },
  );
}
