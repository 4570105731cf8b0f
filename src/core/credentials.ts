import { constantTimeEqual } from './crypto.js';
import type { Principal } from './principal.js';

/** Turns a bearer string into a principal; each credential kind contributes one resolver. */
export type CredentialResolver = (token: string) => Promise<Principal | undefined>;

export class Credentials {
  private readonly resolvers: CredentialResolver[] = [];

  constructor(private readonly adminToken: string) {}

  register(resolver: CredentialResolver): void {
    this.resolvers.push(resolver);
  }

  async resolve(token: string): Promise<Principal | undefined> {
    if (token.length === 0 || token.length > 4096) return undefined;
    if (constantTimeEqual(token, this.adminToken)) return { kind: 'admin' };
    for (const resolver of this.resolvers) {
      const principal = await resolver(token);
      if (principal) return principal;
    }
    return undefined;
  }
}
