import type { Generated } from 'kysely';
import type { AttemptTables } from './tables/attempts.js';
import type { CourierTables, MailTemplateTables } from './tables/courier.js';
import type { CredentialListTables } from './tables/credentials.js';
import type { EventTables } from './tables/events.js';
import type { FlowTables } from './tables/flows.js';
import type { MfaTables } from './tables/mfa.js';
import type { OAuthTables } from './tables/oauth.js';
import type { OperatorTables } from './tables/operators.js';
import type { PasskeyTables } from './tables/passkeys.js';
import type { CredentialTables } from './tables/passwords.js';
import type { ProjectTables } from './tables/projects.js';
import type { RecoveryLinkTables } from './tables/recovery-links.js';
import type { SamlTables } from './tables/saml.js';
import type { SchemaTables } from './tables/schemas.js';
import type { ServiceKeyTables } from './tables/service-keys.js';
import type { SessionTables } from './tables/sessions.js';
import type { SsoLinkTables, SsoTables } from './tables/sso.js';
import type { TeamTables } from './tables/teams.js';
import type { UserTables } from './tables/users.js';
import type { WebhookTables } from './tables/webhooks.js';

export interface MigrationTables {
  schema_migrations: { version: string; applied_at: Generated<Date> };
}

/**
 * The whole database as Kysely sees it: each domain declares its tables in `src/db/tables/<domain>.ts`
 * (types only: they import kysely and each other, never a domain; its store imports them from there),
 * and is listed here once. Nothing under `src/db/` imports a domain.
 */
export type Database = MigrationTables & ProjectTables & TeamTables & ServiceKeyTables & SchemaTables & UserTables & CredentialTables & FlowTables & CourierTables & MailTemplateTables & OAuthTables & SessionTables & AttemptTables & PasskeyTables & CredentialListTables & SsoTables & SsoLinkTables & MfaTables & OperatorTables & RecoveryLinkTables & EventTables & WebhookTables & SamlTables;
