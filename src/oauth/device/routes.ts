import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../config.js';
import type { Form } from '../client-auth.js';
import { issuerOf } from '../discovery.js';
import type { OAuthPlane } from '../plane.js';
import { oauthResponses } from '../schemas.js';

export interface DeviceRouteDeps {
  config: Pick<Config, 'publicUrl'>;
  oauth: OAuthPlane;
}

/** RFC 8628 §3.2: the device authorization response. */
export const DeviceAuthorizationSchema = Type.Object(
  {
    device_code: Type.String({ description: 'The device polls the token endpoint with it (grant_type urn:ietf:params:oauth:grant-type:device_code); stored only as its SHA-256' }),
    user_code: Type.String({ description: '8 characters of BCDFGHJKLMNPQRSTVWXZ shown as XXXX-XXXX; the person types it at verification_uri (case and dashes do not matter)' }),
    verification_uri: Type.String({ description: 'The hosted page /ui/device' }),
    verification_uri_complete: Type.String({ description: 'verification_uri with the user code filled in (for a QR code or a link)' }),
    expires_in: Type.Integer({ description: 'Seconds the codes live: 600' }),
    interval: Type.Integer({ description: 'Seconds to wait between polls: 5 (slow_down adds 5 each time)' }),
  },
  { additionalProperties: false },
);

const formOf = (body: unknown): Form => (body && typeof body === 'object' ? (body as Form) : (Object.create(null) as Form));

/**
 * POST /auth/device_authorization (inside the /auth context: form bodies, RFC 6749 errors). Client
 * authentication as at the token endpoint; a public client names its `client_id`. Only clients
 * whose `grant_types` name the device grant may use it (400 `unauthorized_client` otherwise).
 */
export function deviceRoutes(app: FastifyInstance, deps: DeviceRouteDeps): void {
  const { oauth } = deps;
  app.post(
    '/device_authorization',
    {
      config: { tenancy: 'credential', emits: [], emitsNone: 'a device code is no change yet: the approval that follows signs in through the login flow (login.succeeded, session.created)' },
      schema: {
        tags: ['oauth'],
        summary: 'Device authorization endpoint (RFC 8628): a device code to poll with and a user code to type at /ui/device',
        description:
          'Form parameters: client_id (public clients) or client authentication (Basic or client_secret_post), scope (OIDC scopes; default openid), acr_values (optional: urn:nist:aal:2 makes the sign-in at /ui/device step up to AAL2). Requests are budgeted per client IP like /auth/authorize (rule ip_authorizations_per_minute).',
        response: oauthResponses({ 200: DeviceAuthorizationSchema }),
      },
    },
    async (request, reply) => {
      const form = formOf(request.body);
      const client = await oauth.clients.authenticate(request.headers.authorization, form);
      const answer = await oauth.device.authorize(client, form, issuerOf(deps.config), request.ip);
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(answer);
    },
  );
}
