import { hash, parseOptions, verify, type Algorithm } from '@node-rs/argon2';
import { availableParallelism } from 'node:os';
import { AppError } from '../core/errors.js';

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

/**
 * How much argon2 work may be under way at once. `concurrency` hashes run on libuv's thread pool
 * (more than the CPU count only adds memory, 19 MiB each, and would take the pool's other users'
 * threads); up to `maxQueue` more wait in memory. Beyond that a request is refused at once with
 * 429 `auth.rate_limited` and `Retry-After`, instead of queueing without bound while everything
 * else waits behind it.
 */
export interface HashLimits {
  concurrency: number;
  maxQueue: number;
}

export const DEFAULT_HASH_LIMITS: Readonly<HashLimits> = Object.freeze({
  // libuv's pool has 4 threads by default: keep at least one for fs, dns and zlib.
  concurrency: Math.max(1, Math.min(availableParallelism(), 3)),
  maxQueue: 32,
});

export function hashersBusy(): AppError {
  return new AppError('auth.rate_limited', 'Too many password checks are in progress; retry shortly.', { reason: 'password_hashing_busy' }, { 'retry-after': '1' });
}

/** A counting semaphore with a bounded wait list; a slot passes straight to the next waiter. */
class Gate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limits: HashLimits) {}

  /** Hashes running plus waiting. */
  get pending(): number {
    return this.running + this.waiting.length;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.limits.concurrency) this.running++;
    else if (this.waiting.length < this.limits.maxQueue) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else throw hashersBusy();
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/** Hashes and verifies off the event loop (the binding runs on libuv's thread pool), at most `limits` at once. */
export class PasswordHasher {
  private readonly gate: Gate;

  constructor(
    readonly params: Argon2Params = OWASP_ARGON2,
    readonly limits: HashLimits = DEFAULT_HASH_LIMITS,
  ) {
    this.gate = new Gate(limits);
  }

  /** Hashes running or waiting right now. */
  get pending(): number {
    return this.gate.pending;
  }

  /** Runs other CPU-heavy work under the same admission (429 when the wait list is full). */
  admit<T>(work: () => Promise<T>): Promise<T> {
    return this.gate.run(work);
  }

  /** Rejects with 429 `auth.rate_limited` when the wait list is full. */
  hash(password: string): Promise<string> {
    return this.gate.run(() => hash(password, { ...this.params, algorithm: ARGON2ID }));
  }

  /** Rejects with 429 `auth.rate_limited` when the wait list is full; false for a wrong password or a corrupt hash. */
  verify(phc: string, password: string): Promise<boolean> {
    return this.gate.run(async () => {
      try {
        return await verify(phc, password);
      } catch {
        // A corrupt stored hash must fail closed, not surface as a 500.
        return false;
      }
    });
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
