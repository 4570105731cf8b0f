import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import { AppError, notFoundError } from '../core/errors.js';
import { looksLikeId, type IdGenerator } from '../core/ids.js';
import type { Page, PageRequest, Paginator } from '../core/pagination.js';
import type { Database } from '../db/schema.js';
import type { EventLog } from '../events/service.js';
import { SYSTEM, type Actor } from '../events/types.js';
import { defaultUserSchema } from './default-schema.js';
import { analyseDocument, isAbsoluteUri, type Issue, type SchemaModel } from './document.js';
import type { SchemaCompiler } from './keywords.js';
import type { RemoteSchemaFetcher } from './remote.js';
import type { SchemaRow, SchemaStore } from './store.js';

/** One immutable revision of a user schema, parsed once and cached by id. */
export interface StoredSchema {
  id: string;
  projectId: string;
  teamId: string | null;
  /** The document's `$id` URL. */
  uri: string;
  objectType: string;
  document: Record<string, unknown>;
  model: SchemaModel;
  createdAt: Date;
}

/** The interface's Schema resource. */
export interface SchemaView {
  id: string;
  schema: Record<string, unknown>;
  metadata: { created_at: string };
}

const CACHE_LIMIT = 500;

function invalidSchema(errors: Issue[]): AppError {
  return new AppError('sch.invalid', 'The schema is not a valid user schema.', { errors });
}

export function toSchemaView(schema: StoredSchema): SchemaView {
  return { id: schema.id, schema: schema.document, metadata: { created_at: schema.createdAt.toISOString() } };
}

export class SchemaService {
  /** Revisions never change, so parsed revisions and compiled validators are cached forever (bounded). */
  private readonly parsed = new Map<string, StoredSchema>();
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(
    private readonly store: SchemaStore,
    private readonly compiler: SchemaCompiler,
    private readonly remote: RemoteSchemaFetcher,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly paginator: Paginator,
    /** Base of generated `$id` URLs: `<base>/schemas/sch_...`. */
    private readonly baseUrl: string,
    private readonly events: EventLog,
  ) {}

  /**
   * Checks a user schema and stores it as a new immutable revision. A missing `$id` is generated
   * (a URL ending in the revision id); a `$id` already used in the project is a 409.
   */
  async create(
    projectId: string,
    document: Record<string, unknown>,
    options: { teamId?: string; trx?: Kysely<Database>; isDefault?: boolean; actor?: Actor } = {},
  ): Promise<StoredSchema> {
    const model = this.check(document);
    const id = this.ids.next('sch');
    const uri = typeof document.$id === 'string' ? document.$id : `${this.baseUrl}/schemas/${id}`;
    const stored = document.$id === undefined ? { $id: uri, ...document } : document;
    const write = async (trx: Kysely<Database>) => {
      const inserted = await this.storeFor(trx).insertUnique({
        id,
        project_id: projectId,
        team_id: options.teamId ?? null,
        uri,
        object_type: model.objectType,
        document: JSON.stringify(stored),
        is_default: options.isDefault ?? false,
        created_at: this.clock.now(),
      });
      // The default schema is part of a new project (its `project.created`), not an event of its own.
      if (inserted && !options.isDefault) await this.events.record(trx, { type: 'schema.created', projectId, actor: options.actor ?? SYSTEM, subjectId: id, data: { uri, team_id: inserted.team_id } });
      return inserted;
    };
    const row = await (options.trx ? write(options.trx) : this.events.transaction(write));
    if (!row) throw new AppError('sch.already_exists', 'A schema with this $id already exists in the project.', { $id: uri });
    // Not cached here: the surrounding transaction may still roll back.
    return toStored(row, model);
  }

  /**
   * A `schema-url` schema: the URL of a stored revision resolves to it; any other URL is fetched
   * (only when the server allows it) and stored as a new revision whose `$id` is that URL.
   */
  async createFromUrl(projectId: string, url: string): Promise<StoredSchema> {
    if (!isAbsoluteUri(url)) throw invalidSchema([{ path: 'schema/url', message: 'must be an absolute URI' }]);
    const found = await this.resolve(projectId, url);
    if (!found) throw invalidSchema([{ path: 'schema/url', message: 'names no schema of this project (and remote fetching is not allowed for it)' }]);
    return found;
  }

  /** Throws `sch.invalid` listing every problem, or returns what Gatehouse reads from the document. */
  check(document: Record<string, unknown>): SchemaModel {
    const { model, issues } = analyseDocument(document);
    if (!model) throw invalidSchema(issues);
    const compiled = this.compiler.compile(document);
    if (!compiled.validate) throw invalidSchema(compiled.errors);
    return model;
  }

  /**
   * A revision by id (or by its `$id` URL within a project); another project's revision, or one
   * outside `teamId`, is `sch.not_found`.
   */
  async get(projectId: string | undefined, id: string, teamId?: string): Promise<StoredSchema> {
    const schema = looksLikeId(id, 'sch') ? await this.byId(projectId, id) : await this.byUri(projectId, id);
    if (!schema || (teamId !== undefined && schema.teamId !== teamId)) throw notFoundError('sch.not_found');
    return schema;
  }

  async list(projectId: string, revisions: 'latest' | 'all', request: PageRequest): Promise<Page<SchemaView>> {
    const scope = `schemas:${projectId}:${revisions}`;
    const cursor = request.pageToken ? this.paginator.decode(request.pageToken, scope) : undefined;
    const limit = this.paginator.limitOf(request);
    const rows = await this.store.list(projectId, revisions, cursor, limit);
    return this.paginator.page(rows, limit, scope, (row) => ({ createdAt: row.created_at, id: row.id }), (row) => toSchemaView(this.parse(row)));
  }

  /**
   * Finds the revision a flow definition or a user names: a revision id (`sch_...`), the `$id` URL
   * of a stored revision, or a generated URL ending in a revision id. Unknown URLs are fetched and
   * stored when remote fetching is enabled (it throws `sch.invalid` when that fails); otherwise
   * undefined. Pass `trx` when calling inside a transaction: on the embedded engine a read outside
   * it would wait for the transaction's connection forever.
   */
  async resolve(projectId: string, idOrUrl: string, trx?: Kysely<Database>): Promise<StoredSchema | undefined> {
    if (idOrUrl.length === 0 || idOrUrl.length > 2048) return undefined;
    if (looksLikeId(idOrUrl, 'sch')) return this.byId(projectId, idOrUrl, trx);
    if (!isAbsoluteUri(idOrUrl)) return undefined;
    const byUri = await this.storeFor(trx).findByUri(projectId, idOrUrl);
    if (byUri) return this.parse(byUri, trx);
    const lastSegment = new URL(idOrUrl).pathname.split('/').pop() ?? '';
    if (looksLikeId(lastSegment, 'sch') && idOrUrl.startsWith(`${this.baseUrl}/`)) return this.byId(projectId, lastSegment, trx);
    if (!this.remote.enabled || !this.remote.allows(idOrUrl)) return undefined;
    return this.importRemote(projectId, idOrUrl, trx);
  }

  /** The schema every project starts with (stored by the project-creation hook). */
  async defaultFor(projectId: string): Promise<StoredSchema | undefined> {
    const row = await this.store.findDefault(projectId);
    return row ? this.parse(row) : undefined;
  }

  /** The compiled Ajv validator of a revision: compiled once, then cached by revision id. */
  validatorFor(schema: StoredSchema): ValidateFunction {
    let validate = this.validators.get(schema.id);
    if (!validate) {
      const compiled = this.compiler.compile(schema.document);
      if (!compiled.validate) throw new AppError('internal', `stored schema ${schema.id} no longer compiles`);
      validate = compiled.validate;
      remember(this.validators, schema.id, validate);
    }
    return validate;
  }

  /** The project-creation hook: stores the default user schema in the creating transaction. */
  async seedDefault(trx: Kysely<Database>, projectId: string): Promise<void> {
    await this.create(projectId, defaultUserSchema(), { trx, isDefault: true });
  }

  private async importRemote(projectId: string, url: string, trx?: Kysely<Database>): Promise<StoredSchema> {
    const fetched = await this.remote.fetch(url);
    const document = { ...fetched, $id: url };
    try {
      return await this.create(projectId, document, { trx });
    } catch (error) {
      // A concurrent import of the same URL won the insert: use its revision.
      if (error instanceof AppError && error.code === 'sch.already_exists') {
        const row = await this.storeFor(trx).findByUri(projectId, url);
        if (row) return this.parse(row, trx);
      }
      throw error;
    }
  }

  /** A stored revision by its `$id` (never fetched): GET /schemas/{url-encoded $id}. */
  private async byUri(projectId: string | undefined, uri: string): Promise<StoredSchema | undefined> {
    if (projectId === undefined || !isAbsoluteUri(uri)) return undefined;
    const row = await this.store.findByUri(projectId, uri);
    return row ? this.parse(row) : undefined;
  }

  private storeFor(trx: Kysely<Database> | undefined): SchemaStore {
    return trx ? this.store.with(trx) : this.store;
  }

  private async byId(projectId: string | undefined, id: string, trx?: Kysely<Database>): Promise<StoredSchema | undefined> {
    const cached = this.parsed.get(id);
    if (cached) return projectId === undefined || cached.projectId === projectId ? cached : undefined;
    const row = await this.storeFor(trx).find(projectId, id);
    return row ? this.parse(row, trx) : undefined;
  }

  /** Rows read inside a transaction are not cached: the transaction may still roll back. */
  private parse(row: SchemaRow, trx?: Kysely<Database>): StoredSchema {
    const cached = this.parsed.get(row.id);
    if (cached) return cached;
    const { model } = analyseDocument(JSON.parse(row.document) as Record<string, unknown>);
    if (!model) throw new AppError('internal', `stored schema ${row.id} is no longer valid`);
    const schema = toStored(row, model);
    if (!trx) remember(this.parsed, row.id, schema);
    return schema;
  }
}

function toStored(row: SchemaRow, model: SchemaModel): StoredSchema {
  return {
    id: row.id,
    projectId: row.project_id,
    teamId: row.team_id,
    uri: row.uri,
    objectType: row.object_type,
    document: JSON.parse(row.document) as Record<string, unknown>,
    model,
    createdAt: row.created_at,
  };
}

/** A bounded insertion-ordered cache: the oldest entry goes first. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= CACHE_LIMIT) map.delete(map.keys().next().value as string);
  map.set(key, value);
}
