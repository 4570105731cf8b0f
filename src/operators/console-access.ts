import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import { randomSecret, sha256Hex } from '../core/crypto.js';
import type { IdGenerator } from '../core/ids.js';
import type { Database } from '../db/schema.js';
import type { OperatorService } from './service.js';
import type { OperatorStore } from './store.js';

/** How long a printed set-up link works. */
export const SETUP_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
const SETUP_TOKEN_PREFIX = 'gh_setup_';
/** RFC 8628's grant type (oauth/clients.ts DEVICE_CODE_GRANT): the CLI's client uses only it and refresh tokens. */
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** The name of `gatehouse login`'s client in the system project. */
export const CLI_CLIENT_NAME = 'gatehouse-cli';

/** What the console needs of the OAuth clients: make, read and remove its own public client. */
export interface ConsoleClients {
  create(
    projectId: string,
    input: { name: string; redirect_uris: string[]; token_endpoint_auth_method: 'none'; post_logout_redirect_uris?: string[]; grant_types?: Array<'authorization_code' | 'refresh_token' | typeof DEVICE_GRANT> },
  ): Promise<{ client_id: string }>;
  row(clientId: string): Promise<{ id: string; project_id: string; redirect_uris: string[] } | undefined>;
  delete(projectId: string, clientId: string): Promise<void>;
}

export interface ConsoleClient {
  clientId: string;
  /** the system project, whose users sign in to the console */
  projectId: string;
  redirectUri: string;
}

export interface ConsoleAccessDeps {
  db: Kysely<Database>;
  store: OperatorStore;
  operators: OperatorService;
  clients: ConsoleClients;
  clock: Clock;
  ids: IdGenerator;
  /** GATEHOUSE_PUBLIC_URL: the console's addresses are built from it, never from a request. */
  publicUrl: string;
}

/** The stored form of a set-up token, or undefined for one that is not shaped like ours. */
const setupTokenHash = (token: string) => (token.startsWith(SETUP_TOKEN_PREFIX) && token.length <= 128 ? sha256Hex(token) : undefined);

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((value, index) => value === b[index]);

/**
 * How operators get into the console (docs/console.md): its public OAuth client in the system
 * project (code + PKCE, redirect `<public URL>/console/callback`), and the one-time set-up links
 * that make the first instance admin.
 */
export class ConsoleAccess {
  private client?: ConsoleClient;
  private knownClientId?: string;
  private knownCliClientId?: string;

  constructor(private readonly deps: ConsoleAccessDeps) {}

  get redirectUri(): string {
    return `${this.deps.publicUrl}/console/callback`;
  }

  /**
   * The console's client, made with the system project on first need. A changed public URL makes
   * a new client (the old redirect URI would send codes to an address no longer ours); concurrent
   * first calls agree on one through the instance row, and the losers remove theirs.
   */
  async consoleClient(): Promise<ConsoleClient> {
    if (this.client) return this.client;
    const projectId = await this.deps.operators.systemProject();
    const wanted = [this.redirectUri];
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = (await this.deps.store.consoleClientId()) ?? null;
      const row = current !== null ? await this.deps.clients.row(current) : undefined;
      if (row && sameList(row.redirect_uris, wanted)) {
        this.knownClientId = row.id;
        return (this.client = { clientId: row.id, projectId, redirectUri: this.redirectUri });
      }
      const created = await this.deps.clients.create(projectId, {
        name: 'Gatehouse console',
        redirect_uris: wanted,
        token_endpoint_auth_method: 'none',
        post_logout_redirect_uris: [`${this.deps.publicUrl}/console/signed-out`],
      });
      if (await this.deps.store.swapConsoleClient(current, created.client_id)) {
        if (row) await this.deps.clients.delete(projectId, row.id);
        this.knownClientId = created.client_id;
        return (this.client = { clientId: created.client_id, projectId, redirectUri: this.redirectUri });
      }
      await this.deps.clients.delete(projectId, created.client_id);
    }
    throw new Error('the console client could not be named (another process keeps replacing it)');
  }

  /**
   * The public client `gatehouse login` signs operators in with (docs/operators.md): device grant
   * and refresh tokens only, no redirect URIs (so no code flow), made with the system project on
   * first need. Concurrent first calls agree on one through the instance row; the losers remove theirs.
   */
  async cliClient(): Promise<{ clientId: string; projectId: string }> {
    const projectId = await this.deps.operators.systemProject();
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = await this.deps.store.cliClientId();
      if (current && (await this.deps.clients.row(current))) return { clientId: (this.knownCliClientId = current), projectId };
      const created = await this.deps.clients.create(projectId, { name: CLI_CLIENT_NAME, redirect_uris: [], token_endpoint_auth_method: 'none', grant_types: [DEVICE_GRANT, 'refresh_token'] });
      if (await this.deps.store.claimCliClient(created.client_id)) return { clientId: (this.knownCliClientId = created.client_id), projectId };
      await this.deps.clients.delete(projectId, created.client_id);
    }
    throw new Error('the CLI client could not be named (another process keeps replacing it)');
  }

  /** Whether an access token's client is the console's or the CLI's: only those tokens are operator credentials. */
  async isOperatorClient(clientId: string): Promise<boolean> {
    if (await this.isConsoleClient(clientId)) return true;
    if (this.knownCliClientId === clientId) return true;
    // Read again on a miss: the CLI's client is made on first need, maybe by another process.
    this.knownCliClientId = (await this.deps.store.cliClientId()) ?? undefined;
    return this.knownCliClientId === clientId;
  }

  /**
   * Whether an access token's client is the console's: only those tokens are operator credentials.
   * The id is read once per process (it changes only with the public URL, which is configuration).
   */
  async isConsoleClient(clientId: string): Promise<boolean> {
    this.knownClientId ??= this.client?.clientId ?? (await this.deps.store.consoleClientId()) ?? undefined;
    return this.knownClientId === clientId;
  }

  /**
   * A set-up link while no instance admin exists (else undefined): the token is kept only as its
   * SHA-256 and works for 24 hours, once.
   */
  async setupLink(): Promise<string | undefined> {
    if (await this.deps.store.hasInstanceAdmin()) return undefined;
    const token = randomSecret(SETUP_TOKEN_PREFIX);
    const now = this.deps.clock.now();
    await this.deps.store.insertSetupToken(sha256Hex(token), now, new Date(now.getTime() + SETUP_TOKEN_TTL_MS));
    return `${this.deps.publicUrl}/console/setup?token=${encodeURIComponent(token)}`;
  }

  /** Whether the set-up token would still make the first operator (nothing is used up). */
  async setupTokenLive(token: string): Promise<boolean> {
    const hash = setupTokenHash(token);
    return hash !== undefined && this.deps.store.setupTokenLive(hash, this.deps.clock.now());
  }

  /**
   * Makes `userId` (a system-project user who just signed up) the first instance admin: the token
   * is taken and the role granted in one transaction, so one link makes one operator. The instance
   * row is locked first, so set-ups with different links queue and only the first makes an admin.
   */
  async completeSetup(token: string, userId: string): Promise<boolean> {
    const hash = setupTokenHash(token);
    if (hash === undefined) return false;
    const now = this.deps.clock.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const store = this.deps.store.with(trx);
      await store.lockInstance();
      if (!(await store.takeSetupToken(hash, userId, now))) return false;
      await store.insertRole({ id: this.deps.ids.next('oprole'), user_id: userId, project_id: null, role: 'instance_admin', granted_at: now });
      return true;
    });
  }
}
