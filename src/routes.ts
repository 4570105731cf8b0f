import type { FastifyInstance } from 'fastify';
import type { Container } from './container.js';
import { oauthRoutes } from './oauth/routes.js';
import { projectRoutes } from './projects/routes.js';
import { serviceKeyRoutes } from './service-keys/routes.js';
import { teamRoutes } from './teams/routes.js';
import { schemaRoutes } from './schemas/routes.js';
import { userRoutes } from './users/routes.js';
import { userManagementRoutes } from './users/routes.manage.js';
import { sessionRoutes } from './sessions/routes.js';
import { sessionMeRoutes } from './sessions/routes.me.js';
import { projectSettingsRoutes } from './sessions/routes.settings.js';
import { attemptRoutes } from './attempts/routes.js';
import { flowRoutes } from './flows/routes.js';
import { uiRoutes } from './ui/routes.js';
import { credentialRoutes } from './credentials/routes.js';
import { ssoProviderRoutes } from './sso/routes.js';
import { samlProviderRoutes } from './saml/routes.js';
import { operatorRoutes } from './operators/routes.js';
import { consoleRoutes } from './console/routes.js';
import { webhookRoutes } from './webhooks/routes.js';
import { eventRoutes } from './events/routes.js';

/** Every domain's routes, registered on the root instance in this order. */
export const routeModules: Array<(app: FastifyInstance, container: Container) => void> = [
  projectRoutes,
  teamRoutes,
  serviceKeyRoutes,
  schemaRoutes,
  userRoutes,
  userManagementRoutes,
  credentialRoutes,
  ssoProviderRoutes,
  samlProviderRoutes,
  oauthRoutes,
  operatorRoutes,
  eventRoutes,
  sessionMeRoutes,
  sessionRoutes,
  attemptRoutes,
  projectSettingsRoutes,
  flowRoutes,
  uiRoutes,
  consoleRoutes,
  (app, container) => webhookRoutes(app, container.webhooks.service),
];
