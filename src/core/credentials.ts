import { digestsEqual, sha256Hex } from './crypto.js';
import type { Principal } from './principal.js';

/**
 * Turns a bearer string into a principal; each credential kind contributes one resolver. It is
 * handed the token's SHA-256 (hex) too, computed once per request: a resolver whose credential is
 * stored hashed looks it up by that instead of hashing the token again.
 */
export type CredentialResolver = (token: string, tokenSha256: string) => Promise<Principal | undefined>;

export class Credentials {
  private readonly resolvers: CredentialResolver[] = [];
  /** The admin token's SHA-256, made once: a request's token is compared with it digest to digest. */
  private readonly adminDigest: string;

  constructor(adminToken: string) {
    this.adminDigest = sha256Hex(adminToken);
  }

  register(resolver: CredentialResolver): void {
    this.resolvers.push(resolver);
  }

  async resolve(token: string): Promise<Principal | undefined> {
    if (token.length === 0 || token.length > 4096) return undefined;
    // Digest against digest: constant time, and the token's length does not show.
    const digest = sha256Hex(token);
    if (digestsEqual(digest, this.adminDigest)) return { kind: 'admin' };
    for (const resolver of this.resolvers) {
      const principal = await resolver(token, digest);
      if (principal) return principal;
    }
    return undefined;
  }
}
