import { pooledRandomBytes } from './random.js';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** 26 lowercase base32 characters: 130 bits of randomness, URL-safe, no ambiguous letters. */
function randomBase32(length = 26): string {
  const bytes = pooledRandomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i] & 31];
  return out;
}

export type IdPrefix =
  | 'proj' | 'team' | 'sch' | 'usr' | 'sess' | 'att' | 'flow' | 'fdef' | 'key' | 'evt' | 'aud' | 'oc'
  | 'code' | 'tok' | 'cred' | 'mail' | (string & {});

export interface IdGenerator {
  next(prefix: IdPrefix): string;
}

export const randomIds: IdGenerator = {
  next: (prefix) => `${prefix}_${randomBase32()}`,
};

const ID_SHAPE = /^[a-z]{2,8}_[0-9a-z]{10,40}$/;

/** Cheap syntactic check so that obviously bad ids are answered with 404 before touching storage. */
export function looksLikeId(value: string, prefix?: string): boolean {
  if (!ID_SHAPE.test(value)) return false;
  return prefix === undefined || value.startsWith(`${prefix}_`);
}

/**
 * A well-formed user id that no user has (ids are random): the lookup made for an identifier that
 * names nobody, so known and unknown identifiers cost the same statement.
 */
export const NO_USER_ID = `usr_${'0'.repeat(26)}`;
