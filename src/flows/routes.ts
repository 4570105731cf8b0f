import type { FastifyInstance } from 'fastify';
import type { Container } from '../container.js';
import { flowDefinitionRoutes } from './definitions/routes.js';
import { flowRuntimeRoutes } from './runtime/routes.js';
import { upstreamReturnRoutes } from './runtime/routes.upstream.js';
import { flowSettingsRoutes } from './settings/routes.js';
import { mailTemplateRoutes } from '../courier/routes.js';

/** Flow definitions, branding and flow settings, and the /flow runtime. */
export function flowRoutes(app: FastifyInstance, container: Container): void {
  flowDefinitionRoutes(app, container, container.flows.definitions);
  flowSettingsRoutes(app, container, container.flows.settings);
  mailTemplateRoutes(app, container);
  flowRuntimeRoutes(app, container, container.flows.runtime);
  upstreamReturnRoutes(app, container.flows.runtime, container.config.publicUrl);
}
