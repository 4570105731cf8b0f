import type { AttemptDrafts } from '../../attempts/drafts.js';
import type { AttemptService } from '../../attempts/service.js';
import type { SessionService } from '../../sessions/service.js';
import type { FlowCookieCodec } from '../cookie.js';
import type { MethodServices } from '../methods/method.js';
import type { SchemaSource } from '../definitions/schema-view.js';
import type { FlowDefinitionService } from '../definitions/service.js';
import type { CaptchaGate } from '../gates/captcha.js';
import type { FlowStartBudget } from '../risk/flow-starts.js';
import type { RiskService } from '../risk/service.js';
import type { FlowSettingsService } from '../settings/service.js';

/**
 * Everything the flow runtime works with; built once in `flows/module.ts`. The domain services the
 * methods use come from their port (`MethodServices`); the rest is the engine's own.
 */
export interface FlowDeps extends MethodServices {
  codec: FlowCookieCodec;
  definitions: FlowDefinitionService;
  schemas: SchemaSource;
  flowSettings: FlowSettingsService;
  captcha: CaptchaGate;
  risk: RiskService;
  /** flow starts per client IP, project and minute (`ip_flow_starts_per_minute`) */
  flowStarts: FlowStartBudget;
  sessions: SessionService;
  attempts: AttemptService;
  /** Attempts written late: with the handoff when the same request completes the flow. */
  drafts: AttemptDrafts;
  /** the services each method built for itself (`AuthMethod.createServices`), by method name */
  ownServices: ReadonlyMap<string, unknown>;
}
