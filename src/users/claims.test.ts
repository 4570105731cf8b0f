import { describe, expect, it } from 'vitest';
import { analyseDocument } from '../schemas/document.js';
import { claimsOf, profileOf } from './claims.js';

function modelOf(properties: Record<string, unknown>) {
  const { model, issues } = analyseDocument({ type: 'object', properties });
  expect(issues).toEqual([]);
  return model!;
}

describe('x-claim', () => {
  const model = modelOf({
    email: { type: 'string', 'x-claim': 'email' },
    handle: { type: 'string', 'x-claim': 'preferred_username' },
    avatar: { type: 'string', 'x-claim': 'picture' },
    name: {
      type: 'object',
      properties: { given: { type: 'string', 'x-claim': 'given_name' }, family: { type: 'string', 'x-claim': 'family_name' } },
    },
    secret_note: { type: 'string' },
  });

  it('maps attributes (nested ones too) to the userinfo claims with sub = user id', () => {
    const claims = claimsOf(model, {
      id: 'usr_1',
      attributes: { email: 'a@example.com', handle: 'ada', avatar: 'https://img.example/a.png', name: { given: 'Ada', family: 'Lovelace' }, secret_note: 'x' },
    });
    expect(claims).toEqual({
      sub: 'usr_1',
      email: 'a@example.com',
      email_verified: false,
      preferred_username: 'ada',
      picture: 'https://img.example/a.png',
      given_name: 'Ada',
      family_name: 'Lovelace',
      name: 'Ada Lovelace',
    });
    expect(profileOf(claims)).toEqual({ name: 'Ada Lovelace', email: 'a@example.com' });
  });

  it('email_verified is true once metadata.verified holds the property feeding email', () => {
    const user = { id: 'usr_3', attributes: { email: 'v@example.com' } };
    expect(claimsOf(model, user).email_verified).toBe(false);
    expect(claimsOf(model, { ...user, metadata: { verified: { email: '2030-01-01T00:00:00.000Z' } } }).email_verified).toBe(true);
    expect(claimsOf(model, { ...user, metadata: { verified: { handle: '2030-01-01T00:00:00.000Z' } } }).email_verified).toBe(false);
  });

  it('leaves out absent and non-string values and never maps unclaimed attributes', () => {
    const claims = claimsOf(model, { id: 'usr_2', attributes: { email: 42, handle: '', secret_note: 'hidden' } });
    expect(claims).toEqual({ sub: 'usr_2' });
    expect(profileOf(claims)).toEqual({});
  });

  it('prefers an explicit name claim and falls back to preferred_username for the profile', () => {
    const named = modelOf({ display: { type: 'string', 'x-claim': 'name' }, given: { type: 'string', 'x-claim': 'given_name' } });
    expect(claimsOf(named, { id: 'u', attributes: { display: 'The Countess', given: 'Ada' } }).name).toBe('The Countess');
    expect(profileOf(claimsOf(model, { id: 'u', attributes: { handle: 'ada' } }))).toEqual({ name: 'ada' });
  });
});
