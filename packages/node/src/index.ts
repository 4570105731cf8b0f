export { Gatehouse, type GatehouseOptions } from './gatehouse.js';
export { ServiceToken, type ServiceKey } from './service-token.js';
export { SessionCache } from './session-cache.js';
export { hostedPageUrl, stepUpUrl, type HostedPage } from './hosted-pages.js';
export { LogoutTokenVerifier, type LogoutTokenOptions } from './logout-token.js';
export { verifyWebhook, WebhookVerificationError, type VerifyWebhookOptions, type WebhookHeaderInput, type WebhookPayload, type WebhookVerificationReason } from './webhook.js';
export {
  authenticate,
  clearSessionCookie,
  cookieFrom,
  DEFAULT_COOKIE,
  fastifyRequireSession,
  requireSession,
  sessionCookie,
  withSession,
  type AuthOutcome,
  type Denied,
  type ErrorBody,
  type RequireSessionOptions,
  type SessionContext,
} from './middleware.js';
export { GatehouseError, isGatehouseError, type Session } from '@gatehouse/client';
