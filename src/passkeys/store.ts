import { sql, type Kysely, type RawBuilder } from 'kysely';
import { constantPart, reusablePart, reusableStatement, type SqlPart } from '../db/reusable.js';
import type { Database } from '../db/schema.js';
import type { PasskeyTables } from '../db/tables/passkeys.js';
import { jsonb } from '../db/sql.js';

export interface PasskeyRow {
  credentialRowId: string;
  userId: string;
  /** The owner's WebAuthn user handle (always present for passkeys saved by the service). */
  userHandle: string | undefined;
  webauthnId: string;
  publicKey: Uint8Array<ArrayBuffer>;
  signCount: number;
  transports: string[];
}

export class PasskeyStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly statements = useStatements(db),
  ) {}

  with(db: Kysely<Database>): PasskeyStore {
    return new PasskeyStore(db, this.statements);
  }

  async handleOf(projectId: string, userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('webauthn_user_handles')
      .select('handle')
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.handle;
  }

  /**
   * Stores the user's handle unless the user (or the handle) is taken; answers the handle the
   * user has now, or undefined when the handle belongs to someone else. No target on the
   * conflict clause: either unique constraint must end in "nothing", never an aborted transaction.
   */
  async claimHandle(projectId: string, userId: string, handle: string, at: Date): Promise<string | undefined> {
    const inserted = await this.db
      .insertInto('webauthn_user_handles')
      .values({ project_id: projectId, user_id: userId, handle, created_at: at })
      .onConflict((oc) => oc.doNothing())
      .returning('handle')
      .executeTakeFirst();
    return inserted?.handle ?? (await this.handleOf(projectId, userId));
  }

  async insertCredential(row: { id: string; projectId: string; userId: string; name: string | null; at: Date }): Promise<void> {
    await this.db
      .insertInto('credentials')
      .values({ id: row.id, project_id: row.projectId, user_id: row.userId, method: 'passkey', secret: '', name: row.name, created_at: row.at, updated_at: row.at })
      .execute();
  }

  /** Inserts the passkey unless its WebAuthn id is taken in the project; false when taken. */
  async insertPasskey(row: Omit<PasskeyTables['passkeys'], 'transports'> & { transports: string[] }): Promise<boolean> {
    const inserted = await this.db
      .insertInto('passkeys')
      .values({ ...row, transports: jsonb(row.transports) })
      .onConflict((oc) => oc.constraint('passkeys_project_webauthn_id_key').doNothing())
      .returning('credential_row_id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** The passkey and its owner's user handle, in one statement (a login's hot path). */
  async find(projectId: string, webauthnId: string): Promise<PasskeyRow | undefined> {
    const row = await this.db
      .selectFrom('passkeys')
      .leftJoin('webauthn_user_handles', 'webauthn_user_handles.user_id', 'passkeys.user_id')
      .select(['credential_row_id', 'passkeys.user_id', 'webauthn_id', 'public_key', 'sign_count', 'transports', 'webauthn_user_handles.handle'])
      .where('passkeys.project_id', '=', projectId)
      .where('webauthn_id', '=', webauthnId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      credentialRowId: row.credential_row_id,
      userId: row.user_id,
      userHandle: row.handle ?? undefined,
      webauthnId: row.webauthn_id,
      publicKey: new Uint8Array(row.public_key),
      signCount: Number(row.sign_count),
      transports: row.transports,
    };
  }

  /**
   * `find`, with another domain's one-row read carried in the same statement (the flow's risk
   * signals before an assertion is checked): one round trip instead of two.
   */
  async findAlongside<T extends object>(projectId: string, webauthnId: string, alongside: RawBuilder<T>): Promise<{ passkey: PasskeyRow | undefined; alongside: T }> {
    const { rows } = await sql<T & Record<`passkey_${string}`, unknown>>`select other.*,
        p.credential_row_id as passkey_credential_row_id, p.user_id as passkey_user_id, p.webauthn_id as passkey_webauthn_id,
        p.public_key as passkey_public_key, p.sign_count as passkey_sign_count, p.transports as passkey_transports, h.handle as passkey_handle
      from (${alongside}) as other
      left join passkeys as p on p.project_id = ${projectId} and p.webauthn_id = ${webauthnId}
      left join webauthn_user_handles as h on h.user_id = p.user_id`.execute(this.db);
    const row = rows[0] as Record<string, unknown>;
    const rest = Object.fromEntries(Object.entries(row).filter(([name]) => !name.startsWith('passkey_'))) as T;
    if (row.passkey_credential_row_id === null) return { passkey: undefined, alongside: rest };
    return {
      alongside: rest,
      passkey: {
        credentialRowId: row.passkey_credential_row_id as string,
        userId: row.passkey_user_id as string,
        userHandle: (row.passkey_handle as string | null) ?? undefined,
        webauthnId: row.passkey_webauthn_id as string,
        publicKey: new Uint8Array(row.passkey_public_key as Buffer),
        signCount: Number(row.passkey_sign_count),
        transports: row.passkey_transports as string[],
      },
    };
  }

  async listForUser(projectId: string, userId: string): Promise<Array<{ id: string; transports: string[] }>> {
    const rows = await this.db
      .selectFrom('passkeys')
      .innerJoin('credentials', 'credentials.id', 'passkeys.credential_row_id')
      .select(['passkeys.webauthn_id', 'passkeys.transports'])
      .where('passkeys.project_id', '=', projectId)
      .where('passkeys.user_id', '=', userId)
      .orderBy('credentials.created_at')
      .orderBy('credentials.id')
      .execute();
    return rows.map((row) => ({ id: row.webauthn_id, transports: row.transports }));
  }

  /**
   * Records a verified assertion in one statement: the new sign count, unless it does not move
   * forward (WebAuthn §7.2 step 21: either count non-zero and new <= stored), and the credential's
   * last use. False when the count was refused (a concurrent assertion or a cloned authenticator).
   */
  async recordUse(credentialRowId: string, newCount: number, at: Date): Promise<boolean> {
    const result = await sql<{ id: string }>`
      with moved as (
        update passkeys set sign_count = ${newCount}::bigint
        where credential_row_id = ${credentialRowId}
          and not (${newCount}::bigint <= sign_count and (${newCount}::bigint > 0 or sign_count > 0))
        returning credential_row_id
      )
      update credentials set last_used_at = ${at}
      from moved where credentials.id = moved.credential_row_id
      returning credentials.id`.execute(this.db);
    return result.rows.length === 1;
  }

  /**
   * `consumeChallenge` then `recordUse`, in one statement: the sign count moves only when this
   * statement consumed the challenge, so of concurrent submits of one assertion only the consumer
   * goes on and the others are not mistaken for a clone. `used`: the challenge was answered
   * already (nothing written); `regressed`: consumed, but the count did not move forward.
   */
  async consumeChallengeAndRecordUse(use: UseInput): Promise<UseOutcome> {
    const { ctes, columns } = this.useParts(use);
    const result = await this.db.executeQuery(this.statements.alone({ ctes, columns }));
    return useOutcome(result.rows[0]);
  }

  /** `consumeChallengeAndRecordUse` as parts of another domain's statement (see `UseParts`). */
  useParts(use: UseInput): UseParts {
    return this.statements.parts(use);
  }

  /** True exactly once per challenge hash: the insert is the whole decision. */
  async consumeChallenge(projectId: string, challengeHash: string, expiresAt: Date): Promise<boolean> {
    const inserted = await this.db
      .insertInto('webauthn_used_challenges')
      .values({ challenge_hash: challengeHash, project_id: projectId, expires_at: expiresAt })
      .onConflict((oc) => oc.column('challenge_hash').doNothing())
      .returning('challenge_hash')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /**
   * For a periodic sweeper: FlowSweeper (src/flows/sweeper.ts) is the one that fits, beside
   * `captcha_spent`; the flow engine's owner wires `webauthn_used_challenges` into it.
   */
  async deleteExpiredChallenges(before: Date): Promise<number> {
    const result = await this.db.deleteFrom('webauthn_used_challenges').where('expires_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** What one verified assertion consumes and records. */
export interface UseInput {
  projectId: string;
  challengeHash: string;
  challengeExpiresAt: Date;
  credentialRowId: string;
  newCount: number;
  at: Date;
}

export type UseOutcome = 'recorded' | 'used' | 'regressed';

/** The columns `UseParts.columns` adds to the statement that carries them (read from a row of any shape). */
export interface UseReport {
  use_consumed?: unknown;
  use_recorded?: unknown;
}

/**
 * `consumeChallengeAndRecordUse` as parts of a statement another domain runs (the flow's hand-off,
 * AttemptStore.insertHandedOff): its CTEs, the condition that the use held (recorded; the
 * hand-off is gated on it), and the columns that tell why not.
 */
export interface UseParts {
  ctes: SqlPart;
  held: SqlPart<boolean>;
  columns: SqlPart<UseReport>;
}

/**
 * The statements of a verified assertion's use, compiled once (src/db/reusable.ts): the sign-in
 * hot path carries them in its hand-off. Shared by every store `with` makes.
 */
function useStatements(db: Kysely<Database>) {
  const ctes = reusablePart(db, (a: { challengeHash: string; projectId: string; challengeExpiresAt: Date; newCount: number; credentialRowId: string; at: Date }) =>
    sql`passkey_used as (
        insert into webauthn_used_challenges (challenge_hash, project_id, expires_at)
        values (${a.challengeHash}::text, ${a.projectId}::text, ${a.challengeExpiresAt}::timestamptz)
        on conflict (challenge_hash) do nothing
        returning challenge_hash
      ), passkey_moved as (
        update passkeys set sign_count = ${a.newCount}::bigint
        where credential_row_id = ${a.credentialRowId}::text and exists (select 1 from passkey_used)
          and not (${a.newCount}::bigint <= sign_count and (${a.newCount}::bigint > 0 or sign_count > 0))
        returning credential_row_id
      ), passkey_touched as (
        update credentials set last_used_at = ${a.at}::timestamptz
        from passkey_moved where credentials.id = passkey_moved.credential_row_id
        returning credentials.id
      )`,
  );
  return {
    parts: (use: UseInput): UseParts => ({ ctes: ctes(use), held: USE_HELD, columns: USE_COLUMNS }),
    alone: reusableStatement(db, (a: { ctes: SqlPart; columns: SqlPart }) => sql<UseReport>`with ${a.ctes} select ${a.columns}`),
  };
}

const USE_HELD = constantPart<boolean>('exists (select 1 from passkey_touched)');
const USE_COLUMNS = constantPart<UseReport>('exists (select 1 from passkey_used) as use_consumed, exists (select 1 from passkey_touched) as use_recorded');

export function useOutcome(report: UseReport | undefined): UseOutcome {
  return !report?.use_consumed ? 'used' : report.use_recorded ? 'recorded' : 'regressed';
}
