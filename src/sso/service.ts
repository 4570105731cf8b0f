import type { Clock } from '../core/clock.js';
import { AppError, notFoundError } from '../core/errors.js';
import { targetUrlProblem, type OutboundPolicy } from '../core/outbound-target.js';
import type { Page, PageRequest, Paginator } from '../core/pagination.js';
import type { SealedBox } from '../core/sealed-box.js';
import type { EventLog } from '../events/service.js';
import { SYSTEM, type Actor } from '../events/types.js';
import { SsoProviderStore, type SsoProviderRow } from './store.js';
import { ChangeCache } from '../cache/cache.js';
import type { ChangeFeed } from '../cache/feed.js';
import { DEFAULT_CLAIMS, githubEnterpriseBase, issuerProblem, TEMPLATE_DEFAULTS, type LinkPolicy, type Template } from './templates.js';

/** The callback every provider redirects to (DESIGN §4.14); registered upstream by the operator. */
export const SSO_CALLBACK_PATH = '/flow/sso/callback';

/** In a step's `sso_providers`: every provider the project enables, in the order they were added. */
export const ALL_PROVIDERS = '*';

export interface SsoProviderInput {
  name: string;
  template: Template;
  issuer?: string;
  client_id: string;
  /** Omitted on a replacement: the stored secret stays. `null` removes it (a public client). */
  client_secret?: string | null;
  scopes?: string[];
  claims?: Record<string, string>;
  link?: LinkPolicy;
  enabled?: boolean;
}

export interface SsoProvider {
  id: string;
  project_id: string;
  name: string;
  template: Template;
  issuer?: string;
  client_id: string;
  client_secret_set: boolean;
  scopes: string[];
  claims: Record<string, string>;
  link: LinkPolicy;
  enabled: boolean;
  /** The redirect URI to register at the provider. */
  redirect_uri: string;
  created_at: string;
  updated_at: string;
}

/** A provider as a sign-in step lists it. */
export interface ProviderSummary {
  id: string;
  name: string;
  template: string;
}

/** A refusal naming the field it is about (`details.errors[].path`). */
function refused(path: string, message: string): AppError {
  return new AppError('req.invalid', `The provider's ${path.replace(/^body\//, '').replace(/\//g, '.')} ${message}.`, { errors: [{ path, message }] });
}

/** Property paths as the schema names them (`email`, `name.given`). */
const PROPERTY_PATH = /^[A-Za-z_][A-Za-z0-9_]{0,63}(\.[A-Za-z_][A-Za-z0-9_]{0,63}){0,4}$/;
/** RFC 6749 §3.3 scope-token. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/;

/**
 * Upstream identity providers per project (DESIGN §4.14): configuration only; the flow side
 * (the `sso` method) reads them through `enabledProvider`. The client secret is sealed at rest
 * and never returned (`client_secret_set`).
 */
export class SsoProviderService {
  /** Each project's enabled providers, per process, dropped on every change (`ssop:<project>`). */
  private readonly enabledLists?: ChangeCache<ProviderSummary[]>;

  constructor(
    private readonly store: SsoProviderStore,
    private readonly box: SealedBox,
    private readonly paginator: Paginator,
    private readonly clock: Clock,
    /** GATEHOUSE_PUBLIC_URL: the callback shown to operators is on it, never on a request's Host. */
    private readonly publicUrl: string,
    private readonly events: EventLog,
    private readonly changes?: ChangeFeed,
    /** which hosts upstream calls may reach (`outboundPolicy` of the configuration; default: public addresses only): an issuer they never could is refused */
    private readonly outbound: OutboundPolicy = {},
  ) {
    if (changes) this.enabledLists = new ChangeCache(changes, { kind: 'ssop', max: 10_000 });
  }

  /**
   * Creates or replaces `id`; `created` tells which (201 or 200). With `createOnly` (the request's
   * `If-None-Match: *`) a taken id is 412 and nothing changes, decided by the insert itself.
   */
  async put(projectId: string, id: string, input: SsoProviderInput, options: { createOnly?: boolean; actor?: Actor } = {}): Promise<{ provider: SsoProvider; created: boolean }> {
    const normalised = this.validate(input);
    const secret = input.client_secret;
    if (input.template === 'github' && (secret === null || (secret === undefined && !(await this.store.find(projectId, id))?.client_secret_sealed))) {
      throw refused('body/client_secret', 'is required by the github template (GitHub has no public clients)');
    }
    const now = this.clock.now();
    const row: SsoProviderRow = {
      project_id: projectId,
      id,
      name: input.name,
      template: input.template,
      issuer: normalised.issuer,
      client_id: input.client_id,
      client_secret_sealed: typeof secret === 'string' ? this.box.seal(secret) : null,
      scopes: normalised.scopes,
      claims: input.claims ?? { ...DEFAULT_CLAIMS },
      link: input.link ?? 'none',
      enabled: input.enabled ?? true,
      created_at: now,
      updated_at: now,
    };
    const { stored, created } = await this.events.transaction(async (trx) => {
      const store = new SsoProviderStore(trx);
      let written: { row: SsoProviderRow; created: boolean };
      if (options.createOnly) {
        const inserted = await store.insertNew(row);
        if (!inserted) throw new AppError('req.precondition_failed', 'A provider with this id exists already (If-None-Match: *).', { provider_id: id });
        written = { row: inserted, created: true };
      } else {
        written = await store.upsert(row, secret === undefined);
      }
      const type = written.created ? 'sso_provider.created' : 'sso_provider.updated';
      await this.events.record(trx, { type, projectId, actor: options.actor ?? SYSTEM, subjectId: id, data: { name: written.row.name, template: written.row.template } });
      return { stored: written.row, created: written.created };
    });
    this.changed(projectId);
    return { provider: this.view(stored), created };
  }

  async get(projectId: string, id: string): Promise<SsoProvider> {
    const row = await this.store.find(projectId, id);
    if (!row) throw notFoundError('sso.not_found', { provider_id: id });
    return this.view(row);
  }

  async list(projectId: string, request: PageRequest): Promise<Page<SsoProvider>> {
    const scope = `sso_providers:${projectId}`;
    const cursor = request.pageToken ? this.paginator.decode(request.pageToken, scope) : undefined;
    const limit = this.paginator.limitOf(request);
    const rows = await this.store.list(projectId, cursor, limit);
    return this.paginator.page(rows, limit, scope, (row) => ({ createdAt: row.created_at, id: row.id }), (row) => this.view(row));
  }

  /** Idempotent, like the deletion of OAuth clients: unknown and other-project ids change nothing. */
  async delete(projectId: string, id: string, actor: Actor = SYSTEM): Promise<void> {
    await this.events.transaction(async (trx) => {
      if (await new SsoProviderStore(trx).delete(projectId, id)) await this.events.record(trx, { type: 'sso_provider.deleted', projectId, actor, subjectId: id, data: {} });
    });
    this.changed(projectId);
  }

  /** This process sees its own change at once; others when the notification (migration 0092) arrives. */
  private changed(projectId: string): void {
    this.changes?.publishLocal(`ssop:${projectId}`);
  }

  /** An enabled provider with its opened secret, for the flow side; undefined when unknown or disabled. */
  async enabledProvider(projectId: string, id: string): Promise<(SsoProviderRow & { client_secret?: string }) | undefined> {
    const row = await this.store.find(projectId, id);
    if (!row?.enabled) return undefined;
    const secret = row.client_secret_sealed !== null ? this.box.open(row.client_secret_sealed) : undefined;
    return { ...row, ...(secret !== undefined ? { client_secret: secret } : {}) };
  }

  /**
   * The enabled providers among `ids`, in that order, as a step lists them; `*` stands for every
   * enabled one (oldest first). Read from a per-process list per project that every change of a
   * provider drops (migration 0092), so rendering a sign-in step costs no statement.
   */
  async summaries(projectId: string, ids: readonly string[]): Promise<ProviderSummary[]> {
    const enabled = this.enabledLists ? await this.enabledLists.get(projectId, () => this.loadEnabled(projectId)) : await this.loadEnabled(projectId);
    const byId = new Map(enabled.map((provider) => [provider.id, provider]));
    const order = ids.includes(ALL_PROVIDERS) ? [...new Set([...ids.filter((id) => id !== ALL_PROVIDERS), ...enabled.map((provider) => provider.id)])] : ids;
    return order.flatMap((id) => {
      const provider = byId.get(id);
      return provider ? [provider] : [];
    });
  }

  private async loadEnabled(projectId: string): Promise<ProviderSummary[]> {
    return (await this.store.listEnabled(projectId)).map((row) => ({ id: row.id, name: row.name, template: row.template }));
  }

  /** The checks the body schema cannot make, each naming its field. */
  private validate(input: SsoProviderInput): { issuer: string | null; scopes: string[] } {
    const defaults = TEMPLATE_DEFAULTS[input.template];
    if ((input.template === 'google' || input.template === 'apple') && input.issuer !== undefined && input.issuer !== defaults.issuer) {
      throw refused('body/issuer', `is fixed by the ${input.template} template (${defaults.issuer})`);
    }
    const issuer = input.template === 'github' ? githubEnterpriseBase(input.issuer) : (input.issuer ?? defaults.issuer);
    if (issuer === undefined) throw refused('body/issuer', `is required by the ${input.template} template`);
    if (issuer !== null) {
      const problem = issuerProblem(issuer, input.template);
      if (problem) throw refused('body/issuer', problem);
      // Shape and a literal IP host only: a name that resolves to a private address is refused when the flow calls the provider.
      const unreachable = targetUrlProblem(issuer, this.outbound);
      if (unreachable) throw refused('body/issuer', unreachable);
    }
    const scopes = input.scopes ?? defaults.scopes;
    scopes.forEach((scope, index) => {
      if (!SCOPE_TOKEN.test(scope)) throw refused(`body/scopes/${index}`, 'is not a scope token (RFC 6749 §3.3)');
    });
    if (input.template !== 'github' && !scopes.includes('openid')) throw refused('body/scopes', 'must include openid for an OpenID Connect provider');
    for (const [property, claim] of Object.entries(input.claims ?? {})) {
      if (!PROPERTY_PATH.test(property)) throw refused(`body/claims/${property}`, 'is not a schema property path such as name.given');
      if (claim.length === 0) throw refused(`body/claims/${property}`, 'names no claim');
    }
    return { issuer, scopes: [...new Set(scopes)] };
  }

  private view(row: SsoProviderRow): SsoProvider {
    return {
      id: row.id,
      project_id: row.project_id,
      name: row.name,
      template: row.template,
      ...(row.issuer !== null ? { issuer: row.issuer } : {}),
      client_id: row.client_id,
      client_secret_set: row.client_secret_sealed !== null,
      scopes: row.scopes,
      claims: row.claims,
      link: row.link,
      enabled: row.enabled,
      redirect_uri: `${this.publicUrl}${SSO_CALLBACK_PATH}`,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    };
  }
}
