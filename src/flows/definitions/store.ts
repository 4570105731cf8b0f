import { sql, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Cursor } from '../../core/pagination.js';
import { ALWAYS, insertWhen } from '../../db/gate.js';
import { compiledStatement, reusablePart, reusableStatement, type SqlPart } from '../../db/reusable.js';
import type { Database } from '../../db/schema.js';
import type { FlowDefinitionTables } from '../../db/tables/flows.js';
import { afterCursor, jsonb } from '../../db/sql.js';

/**
 * A run creates its user or completes only while the session it runs in exists: an operator who
 * deleted that session ended the flow, and its submit then writes nothing (issue 12 item 2). The
 * one read of another domain's table here, an existence check inside the run's own statement.
 */
const SESSION_LIVES = sql<boolean>`exists (select 1 from sessions where sessions.id = flow_runs.session_id)`;

export type FlowDefinitionRow = Selectable<FlowDefinitionTables['flow_definitions']>;

/**
 * A run's writes on every flow request, compiled once (src/db/reusable.ts): building them with
 * Kysely on each request cost more CPU than running them. The ids go as one array, so the text is
 * the same for any number of them. The parts go into another domain's statement (a budget's, the
 * handoff's), each under a condition of that statement (`when`).
 */
function runStatements(db: Kysely<Database>) {
  return {
    extendRuns: reusableStatement(db, (a: { ids: string[]; expiresAt: Date }) =>
      db
        .updateTable('flow_runs')
        .set({ expires_at: a.expiresAt })
        .where(sql<boolean>`id = any(${a.ids}::text[])`)
        .where('ended_at', 'is', null),
    ),
    startRun: insertWhen(db, 'flow_runs', { onConflictDoNothing: 'id' }),
    takeEvent: reusablePart(db, (a: { id: string; cap: number }) =>
      db.updateTable('flow_runs').set({ events: sql`events + 1` }).where('id', '=', a.id).where('events', '<', a.cap).returning('id'),
    ),
    endRun: reusablePart(db, (a: { id: string; at: Date; when: SqlPart<SqlBool> }) =>
      db.updateTable('flow_runs').set({ ended_at: a.at }).where('id', '=', a.id).where('ended_at', 'is', null).where(SESSION_LIVES).where(a.when).returning('id'),
    ),
  };
}

export class FlowDefinitionStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly statements = runStatements(db),
  ) {}

  with(db: Kysely<Database>): FlowDefinitionStore {
    return new FlowDefinitionStore(db, this.statements);
  }

  /** Serialises changes to a project's definitions (the last-active rule needs a stable view). */
  async lockProject(projectId: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtext(${`flowdef:${projectId}`}))`.execute(this.db);
  }

  async insert(row: FlowDefinitionRow): Promise<void> {
    await this.db
      .insertInto('flow_definitions')
      .values({ ...row, purposes: jsonb(row.purposes), app_ids: jsonb(row.app_ids) })
      .execute();
  }

  async update(row: FlowDefinitionRow): Promise<void> {
    await this.db
      .updateTable('flow_definitions')
      .set({
        name: row.name,
        status: row.status,
        schema_uri: row.schema_uri,
        schema_id: row.schema_id,
        purposes: jsonb(row.purposes),
        app_ids: jsonb(row.app_ids),
        definition: row.definition,
        updated_at: row.updated_at,
      })
      .where('id', '=', row.id)
      .execute();
  }

  async find(id: string): Promise<FlowDefinitionRow | undefined> {
    return this.db.selectFrom('flow_definitions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async list(projectId: string, purpose: string | undefined, cursor: Cursor | undefined, limit: number): Promise<FlowDefinitionRow[]> {
    let query = this.db.selectFrom('flow_definitions').selectAll().where('project_id', '=', projectId);
    if (purpose !== undefined) query = query.where(sql<boolean>`jsonb_exists(purposes, ${purpose})`);
    return afterCursor(query, 'flow_definitions', cursor).limit(limit).execute();
  }

  /** Every definition of a project, oldest first (the order purpose resolution relies on). */
  async forProject(projectId: string): Promise<FlowDefinitionRow[]> {
    return this.db.selectFrom('flow_definitions').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('id').execute();
  }

  /** Active definitions serving a purpose, oldest first. */
  async activeForPurpose(projectId: string, purpose: string): Promise<FlowDefinitionRow[]> {
    return this.db
      .selectFrom('flow_definitions')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('status', '=', 'active')
      .where(sql<boolean>`jsonb_exists(purposes, ${purpose})`)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('flow_definitions').where('id', '=', id).execute();
  }

  /** The run's insert, written only where `when` holds (a budget its statement takes, `WriteGate`). */
  startRunQuery(run: Selectable<FlowDefinitionTables['flow_runs']>, when: SqlPart<SqlBool> = ALWAYS): SqlPart {
    return this.statements.startRun(run, when);
  }

  /** Runs a part of this store's on its own (a run started under no budget). */
  async run(part: SqlPart): Promise<void> {
    await this.db.executeQuery(compiledStatement(part));
  }

  /**
   * Takes one of a run's events as a data-modifying query (RETURNING `id`, a `takenGate`'s take):
   * a row only while fewer than `cap` were taken. Concurrent events serialise on the run's row.
   */
  takeEventQuery(id: string, cap: number): SqlPart {
    return this.statements.takeEvent({ id, cap });
  }

  /** How many events a run took; undefined when the run is gone. */
  async eventsOf(id: string): Promise<number | undefined> {
    return (await this.db.selectFrom('flow_runs').select('events').where('id', '=', id).executeTakeFirst())?.events;
  }

  async extendRuns(ids: string[], expiresAt: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db.executeQuery(this.statements.extendRuns({ ids, expiresAt }));
  }

  /**
   * Claims a live run's one user creation, in one statement; false when the run has ended or
   * created its user already (concurrent submits of one flow serialise on the row).
   */
  async claimUserCreation(id: string, at: Date): Promise<boolean> {
    const row = await this.db
      .updateTable('flow_runs')
      .set({ user_created_at: at })
      .where('id', '=', id)
      .where('ended_at', 'is', null)
      .where('user_created_at', 'is', null)
      .where(SESSION_LIVES)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Takes a live run's next code send, in one statement: only when its last one is at least
   * `intervalMs` old. Refused, the answer says when the next send is allowed.
   */
  async takeCodeSend(id: string, at: Date, intervalMs: number): Promise<{ taken: true } | { taken: false; nextAt?: Date }> {
    const taken = await this.db
      .updateTable('flow_runs')
      .set({ code_sent_at: at })
      .where('id', '=', id)
      .where('ended_at', 'is', null)
      .where((eb) => eb.or([eb('code_sent_at', 'is', null), eb('code_sent_at', '<=', new Date(at.getTime() - intervalMs))]))
      .returning('id')
      .executeTakeFirst();
    if (taken) return { taken: true };
    const row = await this.db.selectFrom('flow_runs').select('code_sent_at').where('id', '=', id).executeTakeFirst();
    return { taken: false, ...(row?.code_sent_at ? { nextAt: new Date(row.code_sent_at.getTime() + intervalMs) } : {}) };
  }

  /** Ends a live run; false when it had ended already (or never existed). */
  async endRun(id: string, at: Date): Promise<boolean> {
    const result = await this.db.updateTable('flow_runs').set({ ended_at: at }).where('id', '=', id).where('ended_at', 'is', null).where(SESSION_LIVES).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * `endRun` as a data-modifying query (RETURNING `id`) for a statement of another domain: see
   * AttemptStore.insertHandedOff. `when`: one more condition (a CTE of that statement held).
   */
  endRunQuery(id: string, at: Date, when: SqlPart<SqlBool> = ALWAYS): SqlPart {
    return this.statements.endRun({ id, at, when });
  }

  async isInUse(definitionId: string, now: Date): Promise<boolean> {
    const row = await this.db
      .selectFrom('flow_runs')
      .select('id')
      .where('definition_id', '=', definitionId)
      .where('ended_at', 'is', null)
      .where('expires_at', '>', now)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }
}
