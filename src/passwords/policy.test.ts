import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors.js';
import { checkPasswordPolicy, codePoints } from './policy.js';

async function ruleOf(password: string, context = {}): Promise<string | undefined> {
  try {
    await checkPasswordPolicy(password, context);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('auth.password_policy');
    return (error as AppError).details.rule as string;
  }
}

describe('password policy', () => {
  it('needs at least 8 code points (or the schema minimum)', async () => {
    expect(await ruleOf('Tq9#vLm')).toBe('min_length');
    expect(await ruleOf('Tq9#vLmz')).toBeUndefined();
    expect(await ruleOf('Tq9#vLmz', { minLength: 12 })).toBe('min_length');
    expect(await ruleOf('Tq9#vLmzKp2!', { minLength: 12 })).toBeUndefined();
  });

  it('allows at most 128 code points and never truncates', async () => {
    const base = 'Zq7!'.repeat(32);
    expect(codePoints(base)).toBe(128);
    expect(await ruleOf(base)).toBeUndefined();
    expect(await ruleOf(`${base}x`)).toBe('max_length');
  });

  it('counts emoji as code points, not UTF-16 units', async () => {
    // 4 emoji are 8 UTF-16 units but only 4 code points.
    expect(await ruleOf('🦄🐙🌵🎈')).toBe('min_length');
    expect(await ruleOf('🦄🐙🌵🎈🦄🐙🌵🎈')).toBeUndefined();
    expect(await ruleOf('🦄'.repeat(128))).toBeUndefined();
    expect(await ruleOf('🦄'.repeat(129))).toBe('max_length');
  });

  it('compares after NFKC, so compatibility forms count once', async () => {
    // U+FB01 (ﬁ ligature) becomes "fi" under NFKC: 7 code points typed, 8 after normalisation.
    expect(await checkPasswordPolicy('ﬁrstXq9')).toBe('firstXq9');
    // Full-width digits normalise to ASCII ones and then hit the block list.
    expect(await ruleOf('１２３４５６７８')).toBe('common_password');
  });

  it('refuses common passwords regardless of case', async () => {
    for (const common of ['password', 'PASSWORD1', '12345678', 'iloveyou', 'qwertyuiop']) {
      expect(await ruleOf(common), common).toBe('common_password');
    }
  });

  it('refuses a password equal to the user identifier and unusable characters', async () => {
    expect(await ruleOf('Someone@Example.com', { identifiers: ['someone@example.com'] })).toBe('matches_identifier');
    expect(await ruleOf('abc\u0000defghij')).toBe('invalid_characters');
    expect(await ruleOf('abcdefgh\ud800')).toBe('invalid_characters');
    expect(await ruleOf('spaces are fine here')).toBeUndefined();
  });
});
