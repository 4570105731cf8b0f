import { AppError } from '../core/errors.js';

/**
 * Per-project session settings, stored under `projects.settings.sessions` and merged over the
 * defaults of DESIGN §4.3. All values are whole seconds.
 */
export interface SessionSettings {
  /** Lifetime of an authenticated session when the exchange names no `ttl` (default 24 h). */
  ttl_seconds: number;
  /** Upper bound for `ttl` on exchange and for `ttl_seconds` (default and limit 720 h). */
  max_ttl_seconds: number;
  /** A factor counts towards urn:nist:aal:1 this long after verification (default 24 h). */
  aal1_window_seconds: number;
  /** Factors count towards urn:nist:aal:2 this long after verification (default 12 h). */
  aal2_window_seconds: number;
}

export const SETTINGS_KEY = 'sessions';
export const HOUR_SECONDS = 3600;
export const MAX_TTL_LIMIT_SECONDS = 720 * HOUR_SECONDS;
export const MIN_WINDOW_SECONDS = 60;

export const DEFAULT_SESSION_SETTINGS: Readonly<SessionSettings> = Object.freeze({
  ttl_seconds: 24 * HOUR_SECONDS,
  max_ttl_seconds: MAX_TTL_LIMIT_SECONDS,
  aal1_window_seconds: 24 * HOUR_SECONDS,
  aal2_window_seconds: 12 * HOUR_SECONDS,
});

/** Anonymous shells live 10 minutes (interface, Limits). */
export const ANONYMOUS_TTL_MS = 10 * 60 * 1000;

const KEYS = Object.keys(DEFAULT_SESSION_SETTINGS) as Array<keyof SessionSettings>;

/** Reads the stored section leniently: unknown or malformed values fall back to the defaults. */
export function sessionSettingsFrom(projectSettings: Record<string, unknown>): SessionSettings {
  const stored = projectSettings[SETTINGS_KEY];
  const result: SessionSettings = { ...DEFAULT_SESSION_SETTINGS };
  if (typeof stored !== 'object' || stored === null) return result;
  for (const key of KEYS) {
    const value = (stored as Record<string, unknown>)[key];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) result[key] = value;
  }
  return result;
}

/**
 * Checks a merged settings object; every violated rule is reported with its path so the
 * caller sees all problems at once (400 `req.invalid`).
 */
export function validateSessionSettings(settings: SessionSettings): void {
  const errors: Array<{ path: string; message: string }> = [];
  const at = (key: keyof SessionSettings) => `body/${SETTINGS_KEY}/${key}`;
  if (settings.max_ttl_seconds > MAX_TTL_LIMIT_SECONDS) errors.push({ path: at('max_ttl_seconds'), message: `must be at most ${MAX_TTL_LIMIT_SECONDS}` });
  if (settings.ttl_seconds > settings.max_ttl_seconds) errors.push({ path: at('ttl_seconds'), message: 'must not exceed max_ttl_seconds' });
  if (settings.aal2_window_seconds > settings.aal1_window_seconds) {
    errors.push({ path: at('aal2_window_seconds'), message: 'must not exceed aal1_window_seconds' });
  }
  for (const key of KEYS) {
    if (settings[key] < MIN_WINDOW_SECONDS) errors.push({ path: at(key), message: `must be at least ${MIN_WINDOW_SECONDS}` });
  }
  if (errors.length > 0) throw new AppError('req.invalid', 'The session settings are invalid.', { errors });
}

const DURATION = /^P(?:(\d{1,7})W)?(?:(\d{1,7})D)?(?:T(?:(\d{1,9})H)?(?:(\d{1,9})M)?(?:(\d{1,9})S)?)?$/;

/**
 * Parses an ISO 8601 duration made of weeks, days, hours, minutes and seconds (`PT1H`,
 * `P7D`, `P1DT12H`) into seconds. Years and months are refused because their length varies.
 * Returns undefined for anything else.
 */
export function parseDurationSeconds(text: string): number | undefined {
  if (text.length > 40) return undefined;
  const match = DURATION.exec(text.toUpperCase());
  if (!match || text.toUpperCase() === 'P' || text.toUpperCase().endsWith('T')) return undefined;
  const [, w, d, h, m, s] = match.map((part) => (part === undefined ? 0 : Number(part)));
  const seconds = w * 604_800 + d * 86_400 + h * 3_600 + m * 60 + s;
  return Number.isSafeInteger(seconds) ? seconds : undefined;
}

/**
 * The lifetime an exchange asks for: the project TTL when `ttl` is absent; otherwise a
 * duration between 1 second and the project maximum, or 400 `sess.invalid_ttl`.
 */
export function resolveTtlSeconds(ttl: string | undefined, settings: SessionSettings): number {
  if (ttl === undefined) return settings.ttl_seconds;
  const seconds = parseDurationSeconds(ttl);
  if (seconds === undefined || seconds < 1) {
    throw new AppError('sess.invalid_ttl', 'The ttl must be an ISO 8601 duration such as PT1H or P7D.', { ttl });
  }
  if (seconds > settings.max_ttl_seconds) {
    throw new AppError('sess.invalid_ttl', 'The ttl exceeds the project maximum session lifetime.', {
      ttl,
      max_ttl_seconds: settings.max_ttl_seconds,
    });
  }
  return seconds;
}
