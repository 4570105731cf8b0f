import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import { decodeBase64 } from '../../core/base64.js';
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { KeyRing } from '../../core/keys.js';
import type { GateStore } from './store.js';

/** The `captcha` gate of a step as the interface shows it, plus signature and expiry. */
export interface CaptchaGateView {
  kind: 'proof_of_work';
  provider: 'altcha';
  config: {
    algorithm: string;
    challenge: string;
    salt: string;
    max_number: number;
    signature: string;
    expires_at: string;
  };
}

export interface CaptchaOptions {
  /** Upper bound of the secret number: the expected work is half of it (default 50,000). */
  maxNumber: number;
  /** How long a challenge can be solved and submitted (default 10 minutes). */
  ttlMs: number;
}

export const CAPTCHA_DEFAULTS: CaptchaOptions = { maxNumber: 50_000, ttlMs: 10 * 60 * 1000 };

interface Proof {
  algorithm: string;
  challenge: string;
  number: number;
  salt: string;
  signature: string;
}

function captchaError(key: string, message: string): AppError {
  return new AppError('flow.validation_failed', message, { fields: { captcha: key } });
}

/** Accepts the ALTCHA widget's base64 JSON payload (canonical base64, as `btoa` writes it) or the same object. */
function parseProof(raw: unknown): Proof | undefined {
  let value = raw;
  if (typeof raw === 'string') {
    if (raw.length > 4096) return undefined;
    const bytes = decodeBase64(raw);
    if (!bytes) return undefined;
    try {
      value = JSON.parse(bytes.toString('utf8'));
    } catch {
      return undefined;
    }
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const p = value as Record<string, unknown>;
  const short = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 512;
  if (!short(p.algorithm) || !short(p.challenge) || !short(p.salt) || !short(p.signature)) return undefined;
  if (typeof p.number !== 'number' || !Number.isSafeInteger(p.number) || p.number < 0) return undefined;
  return { algorithm: p.algorithm as string, challenge: p.challenge as string, number: p.number, salt: p.salt as string, signature: p.signature as string };
}

/**
 * The captcha gate: ALTCHA proof-of-work challenges created and verified by the server
 * (altcha-lib). A challenge is bound to its project and expiry through signed salt parameters;
 * a solved proof is accepted once (spent proofs are stored until they expire).
 */
export class CaptchaGate {
  constructor(
    private readonly keys: KeyRing,
    private readonly store: GateStore,
    private readonly clock: Clock,
    private readonly options: CaptchaOptions = CAPTCHA_DEFAULTS,
  ) {}

  private hmacKeys(): string[] {
    return this.keys.all('captcha').map((key) => key.toString('hex'));
  }

  async challenge(projectId: string): Promise<CaptchaGateView> {
    const expires = new Date(this.clock.now().getTime() + this.options.ttlMs);
    const created = await createChallenge({
      hmacKey: this.hmacKeys()[0],
      maxnumber: this.options.maxNumber,
      expires,
      params: { p: projectId },
    });
    return {
      kind: 'proof_of_work',
      provider: 'altcha',
      config: {
        algorithm: created.algorithm,
        challenge: created.challenge,
        salt: created.salt,
        max_number: created.maxnumber ?? this.options.maxNumber,
        signature: created.signature,
        expires_at: new Date(Math.floor(expires.getTime() / 1000) * 1000).toISOString(),
      },
    };
  }

  /** Refuses missing, tampered, expired, other-project and replayed proofs (400 flow.validation_failed). */
  async verify(projectId: string, raw: unknown): Promise<void> {
    if (raw === undefined || raw === null || raw === '') throw captchaError('error.captcha_required', 'Solve the captcha to continue.');
    const proof = parseProof(raw);
    if (!proof) throw captchaError('error.captcha_invalid', 'The captcha solution is invalid.');
    let valid = false;
    for (const key of this.hmacKeys()) {
      try {
        if (await verifySolution(proof as unknown as Parameters<typeof verifySolution>[0], key, false)) {
          valid = true;
          break;
        }
      } catch {
        valid = false;
      }
    }
    if (!valid) throw captchaError('error.captcha_invalid', 'The captcha solution is invalid.');
    const params = extractParams(proof as unknown as Parameters<typeof extractParams>[0]);
    if (params.p !== projectId) throw captchaError('error.captcha_invalid', 'The captcha solution is invalid.');
    const expiresSeconds = Number(params.expires);
    const now = this.clock.now();
    if (!Number.isFinite(expiresSeconds) || expiresSeconds * 1000 <= now.getTime()) {
      throw captchaError('error.captcha_expired', 'The captcha has expired; solve the new one.');
    }
    const fresh = await this.store.spend(projectId, proof.signature, new Date(expiresSeconds * 1000));
    if (!fresh) throw captchaError('error.captcha_replayed', 'The captcha solution was already used; solve the new one.');
  }

  async sweep(): Promise<void> {
    await this.store.sweep(this.clock.now());
  }
}
