import { hash, parseOptions, verify, type Algorithm } from '@node-rs/argon2';

/** Argon2id cost parameters; memory in KiB. */
export interface Argon2Params {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** OWASP's recommended minimum for argon2id: 19 MiB, 2 passes, 1 lane. */
export const OWASP_ARGON2: Argon2Params = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

// `Algorithm` is a const enum that esbuild cannot inline from a .d.ts; 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;

/** Hashes and verifies off the event loop (the binding runs on libuv's thread pool). */
export class PasswordHasher {
  constructor(readonly params: Argon2Params = OWASP_ARGON2) {}

  hash(password: string): Promise<string> {
    return hash(password, { ...this.params, algorithm: ARGON2ID });
  }

  async verify(phc: string, password: string): Promise<boolean> {
    try {
      return await verify(phc, password);
    } catch {
      // A corrupt stored hash must fail closed, not surface as a 500.
      return false;
    }
  }

  /** True when a stored hash was made with other parameters (or another algorithm) than today's. */
  needsRehash(phc: string): boolean {
    try {
      const options = parseOptions(phc);
      return (
        options.algorithm !== ARGON2ID ||
        options.memoryCost !== this.params.memoryCost ||
        options.timeCost !== this.params.timeCost ||
        options.parallelism !== this.params.parallelism
      );
    } catch {
      return true;
    }
  }
}
