import { AppError } from '../core/errors.js';
import { ownOriginsOf } from '../core/public-url.js';

export interface RelyingPartyOptions {
  /** Gatehouse's public base URL (GATEHOUSE_PUBLIC_URL, or its loopback default); never a request's Host. */
  publicUrl: string;
  /** The project's `preview_origins`. */
  allowedOrigins: readonly string[];
  /** `flow_settings.passkeys.rp_id`, when the project sets one. */
  rpId?: string;
}

export interface RelyingParty {
  rpId: string;
  origin: string;
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? undefined : parsed.origin;
  } catch {
    return undefined;
  }
}

function refused(reason: string): AppError {
  return new AppError('auth.csrf_invalid', 'The request was refused as cross-site.', { reason });
}

/**
 * Whether `rpId` may serve as the RP ID of pages on `hostname` (WebAuthn: a registrable domain
 * suffix). Without a public-suffix list this is the simple rule: equal, or `hostname` ends with
 * `.rpId` and `rpId` has a dot (so `com` is refused) or is `localhost`.
 */
export function isRegistrableSuffix(rpId: string, hostname: string): boolean {
  const id = rpId.toLowerCase();
  const host = hostname.toLowerCase();
  if (id.length === 0 || id.startsWith('.') || id.endsWith('.')) return false;
  if (id === host) return true;
  if (!host.endsWith(`.${id}`)) return false;
  return id.includes('.') || id === 'localhost';
}

/**
 * The relying party of a passkey ceremony, from the submit's `Origin` (DESIGN §4.10): the origin
 * must be Gatehouse's own public origin or one of the project's preview origins (403
 * `auth.csrf_invalid` otherwise); the RP ID is its hostname, or the configured `rpId` when that
 * is a registrable suffix of it.
 */
export function relyingParty(origin: string | undefined, options: RelyingPartyOptions): RelyingParty {
  const normalized = origin === 'null' ? undefined : originOf(origin);
  if (!normalized) throw refused('a passkey ceremony needs an Origin');
  const allowed = new Set<string>();
  for (const own of ownOriginsOf(options.publicUrl)) allowed.add(own);
  for (const candidate of options.allowedOrigins) {
    const value = originOf(candidate);
    if (value) allowed.add(value);
  }
  if (!allowed.has(normalized)) throw refused('origin not allowed');
  const hostname = new URL(normalized).hostname;
  if (options.rpId === undefined || options.rpId === '') return { rpId: hostname, origin: normalized };
  if (!isRegistrableSuffix(options.rpId, hostname)) throw refused('rp_id is not a registrable suffix of the origin');
  return { rpId: options.rpId.toLowerCase(), origin: normalized };
}
