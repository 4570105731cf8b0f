import type { Kysely } from 'kysely';
import type { AttemptDrafts } from '../../attempts/drafts.js';
import type { AttemptService } from '../../attempts/service.js';
import type { Clock } from '../../core/clock.js';
import type { IdGenerator } from '../../core/ids.js';
import type { Courier } from '../../courier/service.js';
import type { CredentialService } from '../../credentials/service.js';
import type { RecoveryCodeService } from '../../mfa/recovery-codes.js';
import type { TotpService } from '../../mfa/totp.js';
import type { PasskeyService } from '../../passkeys/service.js';
import type { PasswordService } from '../../passwords/service.js';
import type { ProjectService } from '../../projects/service.js';
import type { SessionService } from '../../sessions/service.js';
import type { UserService } from '../../users/service.js';
import type { SsoLinkStore } from '../../sso/links.js';
import type { SsoProviderService } from '../../sso/service.js';
import type { UpstreamClient } from '../../sso/upstream.js';
import type { Database } from '../../db/schema.js';
import type { CodeService } from '../codes/service.js';
import type { FlowCookieCodec } from '../cookie.js';
import type { SchemaSource } from '../definitions/schema-view.js';
import type { FlowDefinitionService } from '../definitions/service.js';
import type { CaptchaGate } from '../gates/captcha.js';
import type { FlowStartBudget } from '../risk/flow-starts.js';
import type { RiskService } from '../risk/service.js';
import type { FlowSettingsService } from '../settings/service.js';

/** Everything the flow runtime works with; built once in `flows/module.ts`. */
export interface FlowDeps {
  /** runs `work` in one database transaction (a user and its credentials are written together) */
  transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  clock: Clock;
  ids: IdGenerator;
  codec: FlowCookieCodec;
  definitions: FlowDefinitionService;
  schemas: SchemaSource;
  settings: FlowSettingsService;
  captcha: CaptchaGate;
  risk: RiskService;
  /** flow starts per client IP, project and minute (`ip_flow_starts_per_minute`) */
  flowStarts: FlowStartBudget;
  codes: CodeService;
  courier: Courier;
  projects: ProjectService;
  sessions: SessionService;
  attempts: AttemptService;
  /** Attempts written late: with the handoff when the same request completes the flow. */
  drafts: AttemptDrafts;
  users: UserService;
  passwords: PasswordService;
  passkeys: PasskeyService;
  /** lists and removes a user's credentials (settings flows) */
  userCredentials: CredentialService;
  totp: TotpService;
  recoveryCodes: RecoveryCodeService;
  /** upstream SSO: providers, links, and the relying-party client */
  sso: { providers: SsoProviderService; links: SsoLinkStore; upstream: UpstreamClient };
  /** GATEHOUSE_PUBLIC_URL: the base of mail links, SSO callbacks and the passkey origin; never a request's Host */
  publicUrl: string;
}
