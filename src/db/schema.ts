import type { Generated } from 'kysely';
import type { OAuthTables } from '../oauth/store.js';
import type { CredentialTables } from '../passwords/store.js';
import type { ProjectTables } from '../projects/store.js';
import type { SchemaTables } from '../schemas/store.js';
import type { UserTables } from '../users/store.js';
import type { TeamTables } from '../teams/store.js';
import type { FlowTables } from '../flows/tables.js';
import type { ServiceKeyTables } from '../service-keys/store.js';
import type { SessionTables } from '../sessions/store.js';
import type { AttemptTables } from '../attempts/store.js';
import type { PasskeyTables } from '../passkeys/store.js';
import type { CredentialListTables } from '../credentials/store.js';
import type { SsoTables } from '../sso/store.js';
import type { SsoLinkTables } from '../sso/links.js';
import type { MfaTables } from '../mfa/store.js';

export interface MigrationTables {
  schema_migrations: { version: string; applied_at: Generated<Date> };
}

/**
 * The whole database as Kysely sees it: each domain declares its own tables next to its SQL
 * (`<domain>/store.ts`) and is listed here once.
 */
export type Database = MigrationTables & ProjectTables & TeamTables & ServiceKeyTables & SchemaTables & UserTables & CredentialTables & FlowTables & OAuthTables & SessionTables & AttemptTables & PasskeyTables & CredentialListTables & SsoTables & SsoLinkTables & MfaTables;
