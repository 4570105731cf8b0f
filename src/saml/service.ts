import type { EventLog } from '../events/service.js';
import { SYSTEM, type Actor } from '../events/types.js';
import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import { AppError, notFoundError } from '../core/errors.js';
import type { Page, PageRequest, Paginator } from '../core/pagination.js';
import type { SealedBox } from '../core/sealed-box.js';
import type { Database } from '../db/schema.js';
import { DOMAIN, PROPERTY_PATH } from './attributes.js';
import { newKeyAndCertificate } from './cert.js';
import { METADATA_REFRESH_MS, metadataFetcher, metadataUrlProblem, type MetadataFetcher } from './fetch.js';
import type { OutboundPolicy } from '../core/outbound-target.js';
import { MetadataProblem, parseIdpMetadata, spMetadataXml, type IdpMetadata } from './metadata.js';
import { SamlProviderStore, type SamlProviderRow, type SamlProviderWithDomains } from './store.js';

/** The Assertion Consumer Service (HTTP-POST binding) every provider answers to (DESIGN §4.20). */
export const SAML_ACS_PATH = '/flow/saml/acs';
/** In a step's `sso_providers`: every provider the project enables. */
export const ALL_PROVIDERS = '*';

export type SamlLink = 'none' | 'verified_email';

export interface SamlProviderInput {
  name: string;
  idp_metadata_xml?: string;
  idp_metadata_url?: string;
  domains?: string[];
  attributes?: Record<string, string>;
  link?: SamlLink;
  enabled?: boolean;
}

export interface SamlProvider {
  id: string;
  project_id: string;
  name: string;
  idp_metadata_url?: string;
  idp_metadata_xml?: string;
  idp_entity_id: string | null;
  idp_sso_url: string | null;
  idp_certificates: number;
  metadata_fetched_at?: string;
  domains: string[];
  attributes: Record<string, string>;
  link: SamlLink;
  enabled: boolean;
  sp_entity_id: string;
  acs_url: string;
  sp_metadata_url: string;
  created_at: string;
  updated_at: string;
}

/** A provider the flow side signs in with: its metadata as read now and the SP's key. */
export interface OpenedSamlProvider {
  id: string;
  projectId: string;
  name: string;
  attributes: Record<string, string>;
  link: SamlLink;
  idp: IdpMetadata;
  spEntityId: string;
  acsUrl: string;
  spPrivateKey: string;
}

export interface SamlProviderDeps {
  db: Kysely<Database>;
  /** SealedBox with purpose `SAML_SP_KEY_PURPOSE`: the SP keys at rest */
  box: SealedBox;
  clock: Clock;
  /** GATEHOUSE_PUBLIC_URL: the entity ids and the ACS are on it */
  publicUrl: string;
  /** the management API's pages (the flow side lists nothing) */
  paginator?: Paginator;
  /** reads a metadata URL (tests give their own); default: the SSRF-safe client under `outbound` */
  fetcher?: MetadataFetcher;
  /** which hosts metadata URLs may reach (`outboundPolicy` of the configuration; default: public addresses only) */
  outbound?: OutboundPolicy;
  /** the event log: provider changes are `saml_provider.*` events, in the change's transaction */
  events?: EventLog;
  log?: (message: string, details: Record<string, unknown>) => void;
}

/** The SealedBox purpose of the SP private keys. */
export const SAML_SP_KEY_PURPOSE = 'saml.sp-key';

const refused = (path: string, message: string) => new AppError('req.invalid', `The provider's ${path.replace(/^body\//, '').replace(/\//g, '.')} ${message}.`, { errors: [{ path, message }] });

/**
 * SAML 2.0 identity providers per project (DESIGN §4.20): configuration, the IdP's metadata
 * (inline, or fetched from a URL, cached and refreshed daily), the SP's metadata and key, and the
 * home-realm domains (unique per project). The `saml` sign-in method reads providers through
 * `opened`, `summaries` and `providerOfDomain`.
 */
export class SamlProviderService {
  /** parsed metadata per provider version: a sign-in does not parse the document again */
  private readonly parsed = new Map<string, IdpMetadata>();

  private readonly db: Kysely<Database>;
  private readonly store: SamlProviderStore;
  private readonly box: SealedBox;
  private readonly clock: Clock;
  private readonly publicUrl: string;
  private readonly fetcher: MetadataFetcher;

  constructor(private readonly deps: SamlProviderDeps) {
    ({ db: this.db, box: this.box, clock: this.clock, publicUrl: this.publicUrl } = deps);
    this.store = new SamlProviderStore(deps.db);
    this.fetcher = deps.fetcher ?? metadataFetcher(deps.outbound ?? {});
  }

  entityId = (projectId: string, id: string) => `${this.publicUrl}/saml/${projectId}/${id}`;
  acsUrl = () => `${this.publicUrl}${SAML_ACS_PATH}`;

  async put(projectId: string, id: string, input: SamlProviderInput, options: { createOnly?: boolean; actor?: Actor } = {}): Promise<{ provider: SamlProvider; created: boolean }> {
    const { domains, attributes } = this.validate(input);
    const now = this.clock.now();
    let cached: string | null = null;
    if (input.idp_metadata_url !== undefined) {
      cached = await this.fetchChecked(input.idp_metadata_url, 'body/idp_metadata_url');
    } else {
      this.parse(input.idp_metadata_xml!, 'body/idp_metadata_xml');
    }
    const existing = await this.store.find(projectId, id);
    const sp = existing ? { privateKey: '', certificate: existing.sp_certificate } : newKeyAndCertificate(`gatehouse saml ${projectId}/${id}`.slice(0, 64), now);
    const row: SamlProviderRow = {
      project_id: projectId,
      id,
      name: input.name,
      idp_metadata_xml: input.idp_metadata_xml ?? null,
      idp_metadata_url: input.idp_metadata_url ?? null,
      metadata_cached: cached,
      metadata_fetched_at: cached === null ? null : now,
      attributes,
      link: input.link ?? 'none',
      enabled: input.enabled ?? true,
      sp_key_sealed: existing ? existing.sp_key_sealed : this.box.seal(sp.privateKey),
      sp_certificate: sp.certificate,
      created_at: now,
      updated_at: now,
    };
    const result = await this.db.transaction().execute(async (trx) => {
      const written = await this.store.upsert(trx, row, options.createOnly === true);
      if (!written) throw new AppError('req.precondition_failed', 'A provider with this id exists already (If-None-Match: *).', { provider_id: id });
      const taken = await this.store.replaceDomains(trx, projectId, id, domains);
      if (taken.length > 0) throw new AppError('saml.domain_taken', `Another SAML provider of the project holds ${taken.join(', ')}.`, { domains: taken });
      await this.deps.events?.record(trx, { type: written.created ? 'saml_provider.created' : 'saml_provider.updated', projectId, actor: options.actor ?? SYSTEM, subjectId: id, data: { name: row.name } });
      return { created: written.created, row: await this.store.find(projectId, id, trx) };
    });
    return { provider: this.view(result.row!), created: result.created };
  }

  async get(projectId: string, id: string): Promise<SamlProvider> {
    const row = await this.store.find(projectId, id);
    if (!row) throw notFoundError('saml.not_found', { provider_id: id });
    return this.view(row);
  }

  async list(projectId: string, request: PageRequest): Promise<Page<SamlProvider>> {
    const scope = `saml_providers:${projectId}`;
    const paginator = this.deps.paginator!;
    const cursor = request.pageToken ? paginator.decode(request.pageToken, scope) : undefined;
    const limit = paginator.limitOf(request);
    const rows = await this.store.list(projectId, cursor, limit);
    return paginator.page(rows, limit, scope, (row) => ({ createdAt: row.created_at, id: row.id }), (row) => this.view(row));
  }

  /** Idempotent: unknown and other-project ids change nothing. */
  async delete(projectId: string, id: string, actor: Actor = SYSTEM): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (await this.store.delete(projectId, id, trx)) await this.deps.events?.record(trx, { type: 'saml_provider.deleted', projectId, actor, subjectId: id, data: {} });
    });
  }

  /** The SP metadata to give the IdP; 404 for an unknown provider. */
  async spMetadata(projectId: string, id: string): Promise<string> {
    const row = await this.store.find(projectId, id);
    if (!row) throw notFoundError('saml.not_found', { provider_id: id });
    return spMetadataXml({ entityId: this.entityId(projectId, id), acsUrl: this.acsUrl(), certificate: row.sp_certificate });
  }

  /**
   * An enabled provider as a sign-in uses it; undefined when unknown, disabled, or its metadata
   * cannot be read. Metadata from a URL older than a day is fetched again first (a failed refresh
   * keeps the cached document and is logged).
   */
  async opened(projectId: string, id: string): Promise<OpenedSamlProvider | undefined> {
    const row = await this.store.find(projectId, id);
    if (!row?.enabled) return undefined;
    let xml = row.idp_metadata_xml ?? row.metadata_cached;
    let fetchedAt = row.metadata_fetched_at;
    const now = this.clock.now();
    if (row.idp_metadata_url !== null && (fetchedAt === null || now.getTime() - fetchedAt.getTime() >= METADATA_REFRESH_MS)) {
      try {
        const fresh = await this.fetcher(row.idp_metadata_url);
        parseIdpMetadata(fresh);
        await this.store.saveFetched(projectId, id, fresh, now);
        xml = fresh;
        fetchedAt = now;
      } catch (error) {
        this.deps.log?.('saml metadata refresh failed', { project_id: projectId, provider_id: id, reason: (error as Error).message });
      }
    }
    if (xml === null) return undefined;
    const key = `${projectId}/${id}/${row.updated_at.getTime()}/${fetchedAt?.getTime() ?? 0}`;
    let idp = this.parsed.get(key);
    if (!idp) {
      try {
        idp = parseIdpMetadata(xml);
      } catch {
        return undefined;
      }
      if (this.parsed.size > 1000) this.parsed.clear();
      this.parsed.set(key, idp);
    }
    const spPrivateKey = this.box.open(row.sp_key_sealed);
    if (spPrivateKey === undefined) return undefined;
    return { id, projectId, name: row.name, attributes: row.attributes, link: row.link, idp, spEntityId: this.entityId(projectId, id), acsUrl: this.acsUrl(), spPrivateKey };
  }

  /** The enabled providers among `ids` (`*`: every one), in that order, as a step lists them. */
  async summaries(projectId: string, ids: readonly string[]): Promise<Array<{ id: string; name: string; template: 'saml' }>> {
    const enabled = await this.store.listEnabled(projectId);
    const byId = new Map(enabled.map((row) => [row.id, row]));
    const order = ids.includes(ALL_PROVIDERS) ? [...new Set([...ids.filter((id) => id !== ALL_PROVIDERS), ...enabled.map((row) => row.id)])] : ids;
    return order.flatMap((id) => {
      const row = byId.get(id);
      return row ? [{ id: row.id, name: row.name, template: 'saml' as const }] : [];
    });
  }

  /** The enabled provider whose `domains` hold the e-mail address's domain (home-realm discovery). */
  async providerOfAddress(projectId: string, address: string): Promise<string | undefined> {
    const at = address.lastIndexOf('@');
    if (at < 1) return undefined;
    const domain = address.slice(at + 1).trim().toLowerCase();
    return DOMAIN.test(domain) ? this.store.providerOfDomain(projectId, domain) : undefined;
  }

  private validate(input: SamlProviderInput): { domains: string[]; attributes: Record<string, string> } {
    if ((input.idp_metadata_xml === undefined) === (input.idp_metadata_url === undefined)) {
      throw refused('body', 'needs exactly one of idp_metadata_xml and idp_metadata_url');
    }
    if (input.idp_metadata_url !== undefined) {
      const problem = metadataUrlProblem(input.idp_metadata_url);
      if (problem) throw refused('body/idp_metadata_url', problem);
    }
    const domains = [...new Set((input.domains ?? []).map((domain) => domain.trim().toLowerCase()))];
    domains.forEach((domain, index) => {
      if (!DOMAIN.test(domain)) throw refused(`body/domains/${index}`, 'is not a domain name such as corp.example');
    });
    for (const property of Object.keys(input.attributes ?? {})) {
      if (!PROPERTY_PATH.test(property)) throw refused(`body/attributes/${property}`, 'is not a schema property path such as name.given');
    }
    return { domains, attributes: input.attributes ?? {} };
  }

  private parse(xml: string, path: string): IdpMetadata {
    try {
      return parseIdpMetadata(xml);
    } catch (error) {
      if (error instanceof MetadataProblem) throw refused(path, error.message);
      throw error;
    }
  }

  private async fetchChecked(url: string, path: string): Promise<string> {
    let xml: string;
    try {
      xml = await this.fetcher(url);
    } catch (error) {
      throw refused(path, `could not be fetched: ${(error as Error).message}`.slice(0, 300));
    }
    this.parse(xml, path);
    return xml;
  }

  private view(row: SamlProviderWithDomains): SamlProvider {
    const xml = row.idp_metadata_xml ?? row.metadata_cached;
    let idp: IdpMetadata | undefined;
    try {
      idp = xml === null ? undefined : parseIdpMetadata(xml);
    } catch {
      idp = undefined;
    }
    return {
      id: row.id,
      project_id: row.project_id,
      name: row.name,
      ...(row.idp_metadata_url !== null ? { idp_metadata_url: row.idp_metadata_url } : {}),
      ...(row.idp_metadata_xml !== null ? { idp_metadata_xml: row.idp_metadata_xml } : {}),
      idp_entity_id: idp?.entityId ?? null,
      idp_sso_url: idp?.ssoUrl ?? null,
      idp_certificates: idp?.certificates.length ?? 0,
      ...(row.metadata_fetched_at !== null ? { metadata_fetched_at: row.metadata_fetched_at.toISOString() } : {}),
      domains: row.domains,
      attributes: row.attributes,
      link: row.link,
      enabled: row.enabled,
      sp_entity_id: this.entityId(row.project_id, row.id),
      acs_url: this.acsUrl(),
      sp_metadata_url: `${this.publicUrl}/saml/${row.id}/metadata?project_id=${row.project_id}`,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    };
  }
}
