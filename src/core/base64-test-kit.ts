const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Another text that `Buffer.from(text, 'base64url')` reads as the very same bytes: the last
 * character with one of its unused low bits flipped. Only a text whose length is 2 or 3 (mod 4)
 * has such bits; the strict decoder (./base64.ts) refuses the twin.
 */
export function nonCanonicalTwin(text: string): string {
  if (text.length % 4 < 2) throw new Error(`a base64url text of length ${text.length} has no unused bits`);
  const twin = text.slice(0, -1) + ALPHABET[ALPHABET.indexOf(text.at(-1)!) ^ 1];
  if (!Buffer.from(twin, 'base64url').equals(Buffer.from(text, 'base64url'))) throw new Error('not a twin');
  return twin;
}
