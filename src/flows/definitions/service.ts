import type { Kysely, SqlBool } from 'kysely';
import { ChangeCache } from '../../cache/cache.js';
import type { ChangeFeed } from '../../cache/feed.js';
import type { Clock } from '../../core/clock.js';
import { AppError, notFoundError } from '../../core/errors.js';
import type { IdGenerator } from '../../core/ids.js';
import type { Page, PageRequest, Paginator } from '../../core/pagination.js';
import { takenGates, type WriteGate } from '../../db/gate.js';
import type { SqlPart } from '../../db/reusable.js';
import type { Database } from '../../db/schema.js';
import type { EventLog } from '../../events/service.js';
import { SYSTEM, type Actor } from '../../events/types.js';
import { isUniqueViolation } from '../../db/sql.js';
import type { SchemaSource, SchemaView } from './schema-view.js';
import { ProjectDefinitions, type LoadedDefinition } from './snapshot.js';
import type { FlowDefinitionRow, FlowDefinitionStore } from './store.js';
import type { FlowDefinitionDoc } from './types.js';
import { assertValidDefinition, invalidDefinition } from './validate.js';

export interface FlowDefinition {
  id: string;
  project_id: string;
  flow_definition: FlowDefinitionDoc;
  created_at: string;
  updated_at: string;
}

export interface FlowDefinitionListEntry {
  id: string;
  name: string;
  project_id: string;
  schema_uri: string;
  status: string;
  created_at: string;
  updated_at: string;
}

export interface DefinitionInput {
  schema_uri?: string;
  flow_definition: FlowDefinitionDoc;
}

export const parseDefinition = (row: FlowDefinitionRow): FlowDefinitionDoc => JSON.parse(row.definition) as FlowDefinitionDoc;

function toDefinition(row: FlowDefinitionRow): FlowDefinition {
  return {
    id: row.id,
    project_id: row.project_id,
    flow_definition: parseDefinition(row),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function toListEntry(row: FlowDefinitionRow): FlowDefinitionListEntry {
  return {
    id: row.id,
    name: row.name,
    project_id: row.project_id,
    schema_uri: row.schema_uri,
    status: row.status,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The document with its status: as given, else `fallback` (active for a new one; an update keeps the stored one). */
const withStatus = (input: DefinitionInput, fallback: FlowDefinitionDoc['status']): FlowDefinitionDoc => ({ ...input.flow_definition, status: input.flow_definition.status ?? fallback });

/** The change-feed topic kind of flow definitions (migration 0051): `fdef:<project id>`. */
export const DEFINITIONS_TOPIC = 'fdef';

export class FlowDefinitionService {
  /**
   * Each project's definitions, per process, dropped on any change of one of them (src/cache;
   * docs/performance.md): the flow runtime resolves and loads definitions on every request.
   */
  private readonly cache?: ChangeCache<ProjectDefinitions>;
  /** The gates a run's events are written under (`eventGate`), their statements compiled once. */
  private readonly eventGates: ReturnType<typeof takenGates>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: FlowDefinitionStore,
    private readonly schemas: SchemaSource,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly paginator: Paginator,
    private readonly events: EventLog,
    changes?: ChangeFeed,
  ) {
    // A project's definitions weigh tens of kilobytes parsed: 1,000 projects bound it to tens of megabytes.
    if (changes) this.cache = new ChangeCache(changes, { kind: DEFINITIONS_TOPIC, max: 1_000 });
    this.eventGates = takenGates(db, 'flow_event_taken');
  }

  private async snapshot(projectId: string): Promise<ProjectDefinitions> {
    const load = async () => new ProjectDefinitions(await this.store.forProject(projectId));
    return this.cache ? this.cache.get(projectId, load) : load();
  }

  /** This process sees its own change at once; the others when the notification arrives. */
  private changed(projectId: string): void {
    this.cache?.forget(projectId);
  }

  /** The user schema a definition names (`user_schema`, else `schema_uri`); unknown → 400 flowdef.invalid. */
  private async schemaFor(projectId: string, input: DefinitionInput): Promise<{ schema: SchemaView; uri: string }> {
    const ref = input.flow_definition.user_schema ?? input.schema_uri;
    if (!ref) throw invalidDefinition([{ field: 'user_schema', message: 'name the user schema (flow_definition.user_schema or schema_uri)' }]);
    const schema = await this.schemas.resolve(projectId, ref);
    if (!schema) throw invalidDefinition([{ field: input.flow_definition.user_schema ? 'user_schema' : 'schema_uri', message: `unknown user schema "${ref}"` }]);
    if (input.schema_uri && input.flow_definition.user_schema && input.schema_uri !== input.flow_definition.user_schema) {
      const other = await this.schemas.resolve(projectId, input.schema_uri);
      if (!other || other.id !== schema.id) {
        throw invalidDefinition([{ field: 'schema_uri', message: 'schema_uri and flow_definition.user_schema name different schemas' }]);
      }
    }
    return { schema, uri: input.schema_uri ?? schema.uri };
  }

  private rowOf(projectId: string, id: string, doc: FlowDefinitionDoc, schema: SchemaView, uri: string, createdAt: Date): FlowDefinitionRow {
    return {
      id,
      project_id: projectId,
      name: doc.name,
      status: doc.status ?? 'active',
      schema_uri: uri,
      schema_id: schema.id,
      purposes: Object.keys(doc.purposes),
      app_ids: doc.audience?.app_ids ?? [],
      definition: JSON.stringify(doc),
      created_at: createdAt,
      updated_at: this.clock.now(),
    };
  }

  private async write(action: () => Promise<void>, name: string): Promise<void> {
    try {
      await action();
    } catch (error) {
      if (isUniqueViolation(error)) throw invalidDefinition([{ field: 'name', message: `a flow definition named "${name}" already exists` }]);
      throw error;
    }
  }

  /**
   * Validates a definition document as `create` and `update` do, storing nothing (the console's
   * "Check"). Whether its name is free is the write's to decide: an edit keeps its own name.
   */
  async check(projectId: string, input: DefinitionInput): Promise<void> {
    const { schema } = await this.schemaFor(projectId, input);
    assertValidDefinition(withStatus(input, 'active'), schema);
  }

  async create(projectId: string, input: DefinitionInput, actor: Actor = SYSTEM): Promise<FlowDefinition> {
    const { schema, uri } = await this.schemaFor(projectId, input);
    const doc = withStatus(input, 'active');
    assertValidDefinition(doc, schema);
    const now = this.clock.now();
    const row = this.rowOf(projectId, this.ids.next('fdef'), doc, schema, uri, now);
    await this.events.transaction(async (trx) => {
      await this.write(() => this.store.with(trx).insert(row), doc.name);
      await this.events.record(trx, { type: 'flow_definition.created', projectId, actor, subjectId: row.id, data: { name: row.name, purposes: row.purposes, status: row.status } });
    });
    this.changed(projectId);
    return toDefinition(row);
  }

  /** Inserts definitions validated against a schema the caller already holds (project seeding, in its transaction). */
  async seed(db: Kysely<Database>, projectId: string, schema: SchemaView, docs: FlowDefinitionDoc[]): Promise<void> {
    for (const doc of docs) {
      assertValidDefinition(doc, schema);
      await this.store.with(db).insert(this.rowOf(projectId, this.ids.next('fdef'), doc, schema, schema.uri, this.clock.now()));
    }
  }

  async get(projectId: string | undefined, id: string): Promise<FlowDefinition> {
    return toDefinition(await this.requireRow(projectId, id));
  }

  private async requireRow(projectId: string | undefined, id: string, store = this.store): Promise<FlowDefinitionRow> {
    const row = await store.find(id);
    if (!row || (projectId !== undefined && row.project_id !== projectId)) throw notFoundError('flowdef.not_found');
    return row;
  }

  async list(projectId: string, purpose: string | undefined, request: PageRequest): Promise<Page<FlowDefinitionListEntry>> {
    const scope = `flowdefs:${projectId}:${purpose ?? ''}`;
    const cursor = request.pageToken ? this.paginator.decode(request.pageToken, scope) : undefined;
    const limit = this.paginator.limitOf(request);
    const rows = await this.store.list(projectId, purpose, cursor, limit + 1);
    return this.paginator.page(rows, limit, scope, (row) => ({ createdAt: row.created_at, id: row.id }), toListEntry);
  }

  /** Purposes that would lose their last active definition if `leaving` stopped serving them. */
  private async orphanedPurposes(store: FlowDefinitionStore, leaving: FlowDefinitionRow, stillServes: string[]): Promise<string[]> {
    if (leaving.status !== 'active') return [];
    const orphaned: string[] = [];
    for (const purpose of leaving.purposes) {
      if (stillServes.includes(purpose)) continue;
      const others = (await store.activeForPurpose(leaving.project_id, purpose)).filter((row) => row.id !== leaving.id);
      if (others.length === 0) orphaned.push(purpose);
    }
    return orphaned;
  }

  private lastActive(purposes: string[]): AppError {
    return new AppError('flowdef.last_active', `The definition is the last active one for purpose "${purposes[0]}".`, { purposes });
  }

  /** PUT: replaces the definition; `status` is kept when omitted. */
  async replace(projectId: string, id: string, input: DefinitionInput, actor: Actor = SYSTEM): Promise<FlowDefinition> {
    const existing = await this.requireRow(projectId, id);
    const { schema, uri } = await this.schemaFor(projectId, input);
    const doc = withStatus(input, existing.status);
    assertValidDefinition(doc, schema);
    const row = this.rowOf(projectId, id, doc, schema, uri, existing.created_at);
    await this.db.transaction().execute(async (trx) => {
      const store = this.store.with(trx);
      await store.lockProject(projectId);
      const current = await this.requireRow(projectId, id, store);
      const orphaned = await this.orphanedPurposes(store, current, row.status === 'active' ? row.purposes : []);
      if (orphaned.length > 0) throw this.lastActive(orphaned);
      await this.write(() => store.update(row), doc.name);
      await this.events.record(trx, { type: 'flow_definition.updated', projectId, actor, subjectId: id, data: { name: row.name, purposes: row.purposes, status: row.status } });
    });
    this.changed(projectId);
    return toDefinition(row);
  }

  async remove(projectId: string, id: string, actor: Actor = SYSTEM): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const store = this.store.with(trx);
      await store.lockProject(projectId);
      const row = await this.requireRow(projectId, id, store);
      if (await store.isInUse(id, this.clock.now())) {
        throw new AppError('flowdef.in_use', 'The flow definition is used by a running flow.', { flow_definition_id: id });
      }
      const orphaned = await this.orphanedPurposes(store, row, []);
      if (orphaned.length > 0) throw this.lastActive(orphaned);
      await store.delete(id);
      await this.events.record(trx, { type: 'flow_definition.deleted', projectId, actor, subjectId: id, data: {} });
    });
    this.changed(projectId);
  }

  /** The active definition for a purpose: one whose audience names the app first, then one without audience. */
  async resolve(projectId: string, purpose: string, appId: string | undefined): Promise<LoadedDefinition | undefined> {
    return (await this.snapshot(projectId)).resolve(purpose, appId);
  }

  /** A switch/pivot target: an active definition of that name, else the definition resolved for that purpose. */
  async target(projectId: string, nameOrPurpose: string, appId: string | undefined): Promise<LoadedDefinition | undefined> {
    const definitions = await this.snapshot(projectId);
    const byName = definitions.byName(nameOrPurpose);
    if (byName && byName.row.status === 'active') return byName;
    return definitions.resolve(nameOrPurpose, appId);
  }

  /** A definition of the project by id (a running flow's); shared and frozen, never to be changed. */
  async load(projectId: string, id: string): Promise<LoadedDefinition | undefined> {
    return (await this.snapshot(projectId)).byId(id);
  }

  /** Registers a live run; under `gate` (a budget), only when its statement takes the budget. */
  async startRun(projectId: string, runId: string, definitionId: string, sessionId: string, expiresAt: Date, gate?: WriteGate): Promise<void> {
    const insert = this.startRunQuery(projectId, runId, definitionId, sessionId, expiresAt, gate?.when);
    await (gate ? gate.write([insert]) : this.store.run(insert));
  }

  /** The INSERT of `startRun`, for a statement of another domain (a new flow's shell session); with `when`, only where it holds. */
  startRunQuery(projectId: string, runId: string, definitionId: string, sessionId: string, expiresAt: Date, when?: SqlPart<SqlBool>): SqlPart {
    return this.store.startRunQuery({ id: runId, project_id: projectId, definition_id: definitionId, session_id: sessionId, created_at: this.clock.now(), expires_at: expiresAt, ended_at: null, user_created_at: null, code_sent_at: null, events: 0 }, when);
  }

  /** A flow that moved on lives longer: so does the use of its definitions. */
  async extendRuns(runIds: string[], expiresAt: Date): Promise<void> {
    await this.store.extendRuns(runIds, expiresAt);
  }

  /** Claims the one user a live run may create, inside the user's transaction; false when it may not. */
  claimUserCreation(runId: string, trx: Kysely<Database>): Promise<boolean> {
    return this.store.with(trx).claimUserCreation(runId, this.clock.now());
  }

  /** The UPDATE that ends a live run, for a statement that must write only when it does (AttemptDrafts.handOff). */
  endRunQuery(runId: string, when?: SqlPart<SqlBool>): SqlPart {
    return this.store.endRunQuery(runId, this.clock.now(), when);
  }

  /**
   * The gate one event of a run is written under: it takes one of the run's at most `cap` events
   * in the statement that stores the event. Refused, `refuse` hears how many the run took
   * (undefined: the run is gone).
   */
  eventGate(runId: string, cap: number, refuse: (taken: number | undefined) => Error): WriteGate {
    return this.eventGates(this.store.takeEventQuery(runId, cap), async () => refuse(await this.store.eventsOf(runId)));
  }

  /** Takes the run's next code send (at most one per `intervalMs`); see FlowDefinitionStore.takeCodeSend. */
  takeCodeSend(runId: string, intervalMs: number) {
    return this.store.takeCodeSend(runId, this.clock.now(), intervalMs);
  }

  /** Ends a live run (in `trx` when given); false when it had ended already: a flow completes once. */
  async endRun(runId: string, trx?: Kysely<Database>): Promise<boolean> {
    return (trx ? this.store.with(trx) : this.store).endRun(runId, this.clock.now());
  }
}
