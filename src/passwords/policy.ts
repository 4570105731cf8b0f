import { AppError } from '../core/errors.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../schemas/keywords.js';

/**
 * Password rules (NIST SP 800-63B): length counted in Unicode code points after NFKC, at least 8
 * (or the schema's own minimum), at most 128, never truncated, every printable character allowed,
 * and not a commonly used password. Violations name the rule in `details.rule`.
 */
export type PasswordRule = 'min_length' | 'max_length' | 'invalid_characters' | 'common_password' | 'matches_identifier' | 'method_disabled';

export function policyError(rule: PasswordRule, message: string, details: Record<string, unknown> = {}): AppError {
  return new AppError('auth.password_policy', message, { rule, ...details });
}

/** NFKC form used for both hashing and checking, so that equivalent input always verifies. */
export function normalisePassword(password: string): string {
  return password.normalize('NFKC');
}

export function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

// Lone surrogates cannot be encoded as UTF-8; control characters are never typed on purpose.
const INVALID = /[\u0000-\u0008\u000a-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

let blockList: Promise<ReadonlySet<string>> | undefined;

/** The common-password list of zxcvbn-ts (about 50,000 entries), loaded once on first use. */
export function commonPasswords(): Promise<ReadonlySet<string>> {
  blockList ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((entry) => entry.normalize('NFKC').toLowerCase())),
  );
  return blockList;
}

export interface PolicyContext {
  minLength?: number;
  /** The user's identifiers (e-mail, username): a password equal to one of them is refused. */
  identifiers?: string[];
}

/** Returns the normalised password or throws `auth.password_policy` naming the broken rule. */
export async function checkPasswordPolicy(password: string, context: PolicyContext = {}): Promise<string> {
  if (INVALID.test(password)) throw policyError('invalid_characters', 'The password contains characters that cannot be used.');
  const normalised = normalisePassword(password);
  const length = codePoints(normalised);
  const min = Math.min(Math.max(context.minLength ?? PASSWORD_MIN_LENGTH, 1), PASSWORD_MAX_LENGTH);
  if (length < min) throw policyError('min_length', `The password must have at least ${min} characters.`, { min_length: min, length });
  if (length > PASSWORD_MAX_LENGTH) {
    throw policyError('max_length', `The password must have at most ${PASSWORD_MAX_LENGTH} characters.`, { max_length: PASSWORD_MAX_LENGTH, length });
  }
  const folded = normalised.toLowerCase();
  if ((await commonPasswords()).has(folded)) throw policyError('common_password', 'The password is too common; choose another one.');
  for (const identifier of context.identifiers ?? []) {
    if (identifier.length > 0 && folded === identifier.normalize('NFKC').trim().toLowerCase()) {
      throw policyError('matches_identifier', 'The password must not be the same as the user\'s identifier.');
    }
  }
  return normalised;
}
