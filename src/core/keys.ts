import { deriveKey } from './crypto.js';

/** Subkeys derived once from GATEHOUSE_SECRET; every domain asks for its own purpose. */
export class KeyRing {
  private readonly cache = new Map<string, Buffer>();

  constructor(private readonly roots: Buffer[]) {
    if (roots.length === 0) throw new Error('KeyRing needs at least one root secret');
  }

  /** The newest key for a purpose: used to sign or encrypt. */
  current(purpose: string): Buffer {
    return this.all(purpose)[0];
  }

  /** Every key for a purpose, newest first: used to verify or decrypt during rotation. */
  all(purpose: string): Buffer[] {
    return this.roots.map((root, index) => {
      const cacheKey = `${index}:${purpose}`;
      let key = this.cache.get(cacheKey);
      if (!key) {
        key = deriveKey(root, purpose);
        this.cache.set(cacheKey, key);
      }
      return key;
    });
  }
}
