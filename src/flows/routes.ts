import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { flowDefinitionRoutes } from './definitions/routes.js';
import type { FlowDefinitionService } from './definitions/service.js';
import type { FlowRuntime } from './runtime/engine.js';
import { flowRuntimeRoutes, type FlowRuntimeRouteDeps } from './runtime/routes.js';
import { upstreamReturnRoutes } from './runtime/routes.upstream.js';
import { flowSettingsRoutes } from './settings/routes.js';
import type { FlowSettingsService } from './settings/service.js';
import { mailTemplateRoutes, type MailRouteDeps } from '../courier/routes.js';
import { recoveryLinkRoutes } from './recovery-links/routes.js';
import type { RecoveryLinkService } from './recovery-links/service.js';

export type FlowRouteDeps = MailRouteDeps &
  FlowRuntimeRouteDeps & {
    config: Pick<Config, 'publicUrl'>;
    flows: { definitions: FlowDefinitionService; settings: FlowSettingsService; runtime: FlowRuntime; recoveryLinks: RecoveryLinkService };
  };

/** Flow definitions, branding and flow settings, the /flow runtime, and operator-sent recovery links. */
export function flowRoutes(app: FastifyInstance, deps: FlowRouteDeps): void {
  flowDefinitionRoutes(app, deps.flows.definitions);
  flowSettingsRoutes(app, deps.flows.settings);
  mailTemplateRoutes(app, deps);
  flowRuntimeRoutes(app, deps, deps.flows.runtime);
  upstreamReturnRoutes(app, deps.flows.runtime, deps.config.publicUrl);
  recoveryLinkRoutes(app, deps.flows.recoveryLinks);
}
