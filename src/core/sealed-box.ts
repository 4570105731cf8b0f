import type { KeyRing } from './keys.js';
import { seal, unseal } from './sealed.js';

/** `seal`/`unseal` bound to one purpose, for a domain that keeps one kind of secret (src/core/sealed.ts). */
export class SealedBox {
  constructor(
    private readonly keys: KeyRing,
    private readonly purpose: string,
  ) {}

  seal(plain: string): string {
    return seal(this.keys, this.purpose, plain);
  }

  /** The plain text, or undefined when no configured key opens it (tampered, or sealed under a retired secret). */
  open(sealed: string): string | undefined {
    return unseal(this.keys, this.purpose, sealed);
  }
}
