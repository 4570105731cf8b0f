import { decodeBase64 } from '../core/base64.js';
import { SCOPES } from '../core/scopes.js';
import type { ProjectService } from '../projects/service.js';
import type { ServiceKeyService } from '../service-keys/service.js';
import { oauthError } from './errors.js';

/** A client that proved who it is at the token, revocation or introspection endpoint. */
export interface AuthenticatedClient {
  kind: 'root' | 'service_key' | 'oidc';
  clientId: string;
  projectId: string;
  /** The management scopes client credentials may grant (empty for OIDC clients). */
  allowedScopes: readonly string[];
  /** A registered client without a secret (token_endpoint_auth_method=none): it proves nothing about itself. */
  isPublic?: boolean;
  /** A registered client's RFC 7591 `grant_types` (root clients and service keys have none of them). */
  grantTypes?: readonly string[];
}

export type Form = Record<string, string>;

/** Registered OIDC clients plug in here once they exist (authorization code plane). */
/** How the client authenticated at this request (RFC 7591 `token_endpoint_auth_method` names). */
export type UsedAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

export type ClientVerifier = (clientId: string, secret: string | undefined, method: UsedAuthMethod) => Promise<AuthenticatedClient | undefined>;

const BASIC = /^Basic ([A-Za-z0-9+/=]+)$/i;

function decodeComponent(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    throw oauthError('invalid_request', 'The Authorization header is malformed.');
  }
}

/** RFC 6749 §2.3.1: Basic carries form-urlencoded id and secret; the form may carry them instead, never both. */
export function clientCredentialsOf(authorization: string | undefined, form: Form): { id: string; secret?: string; basic: boolean } | undefined {
  if (authorization && /^Basic\b/i.test(authorization)) {
    // Canonical base64 only (src/core/base64.ts): stray characters or bits are malformed, not ignored.
    const bytes = decodeBase64(BASIC.exec(authorization)?.[1] ?? '');
    const decoded = bytes ? bytes.toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon < 0) throw invalidClient(true, 'The Basic credentials are malformed.');
    if (form.client_secret !== undefined) throw oauthError('invalid_request', 'Use one client authentication method, not two.');
    const id = decodeComponent(decoded.slice(0, colon));
    if (form.client_id !== undefined && form.client_id !== id) throw oauthError('invalid_request', 'client_id differs from the Basic credentials.');
    return { id, secret: decodeComponent(decoded.slice(colon + 1)), basic: true };
  }
  if (form.client_id === undefined) return undefined;
  return { id: form.client_id, secret: form.client_secret, basic: false };
}

export function invalidClient(basic: boolean, description = 'Client authentication failed.'): Error {
  // RFC 6749 §5.2: 401; a client that tried Basic gets the matching challenge.
  return oauthError('invalid_client', description, { method: basic ? 'client_secret_basic' : 'client_secret_post' }, { 'www-authenticate': 'Basic realm="gatehouse"' });
}

export class ClientAuthenticator {
  private readonly verifiers: ClientVerifier[] = [];

  constructor(
    private readonly projects: ProjectService,
    private readonly serviceKeys: ServiceKeyService,
  ) {}

  register(verifier: ClientVerifier): void {
    this.verifiers.push(verifier);
  }

  /** Authenticates the client of a token, revocation or introspection request; 401 invalid_client otherwise. */
  async authenticate(authorization: string | undefined, form: Form): Promise<AuthenticatedClient> {
    const given = clientCredentialsOf(authorization, form);
    if (!given) throw invalidClient(false, 'The request does not authenticate a client.');
    const method: UsedAuthMethod = given.basic ? 'client_secret_basic' : given.secret !== undefined && given.secret !== '' ? 'client_secret_post' : 'none';
    const client = given.id.length > 0 && given.id.length <= 128 ? await this.verify(given.id, given.secret, method) : undefined;
    if (!client) throw invalidClient(given.basic);
    return client;
  }

  private async verify(clientId: string, secret: string | undefined, method: UsedAuthMethod): Promise<AuthenticatedClient | undefined> {
    if (secret !== undefined && secret.length > 0 && secret.length <= 512) {
      // The project's root client: client id = project id, secret = project secret.
      const projectId = await this.projects.idForSecret(secret);
      if (projectId !== undefined) {
        return projectId === clientId ? { kind: 'root', clientId, projectId, allowedScopes: SCOPES } : undefined;
      }
      const key = await this.serviceKeys.verify(clientId, secret);
      if (key) return { kind: 'service_key', clientId: key.clientId, projectId: key.projectId, allowedScopes: key.scopes };
    }
    for (const verifier of this.verifiers) {
      const client = await verifier(clientId, secret, method);
      if (client) return client;
    }
    return undefined;
  }
}
