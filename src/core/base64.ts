/**
 * Strict base64url and base64 for what clients send. `Buffer.from(text, 'base64url')` is lenient:
 * it skips characters outside the alphabet, drops a dangling last character and ignores the
 * unused low bits of the last one, so many texts decode to the same bytes and garbage decodes
 * silently. These accept exactly the text that `toString('base64url')` / `toString('base64')`
 * gives for the bytes (each value has one textual form), and answer undefined for anything else;
 * each caller maps that to the 4xx it already answers for garbage.
 *
 * - base64url (RFC 4648 §5): only `[A-Za-z0-9_-]`, no padding, length not ≡ 1 (mod 4), the unused
 *   low bits of the last character zero.
 * - base64 (RFC 4648 §4): only `[A-Za-z0-9+/]`, padded with `=` to a multiple of 4, the unused
 *   low bits of the last character before the padding zero.
 *
 * The empty text is the encoding of zero bytes (an empty Buffer): callers that need bytes check
 * the length, as they check every other length.
 */

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The 6-bit value of one alphabet character (both alphabets; the caller checked which). */
function sextet(code: number): number {
  if (code >= 65 && code <= 90) return code - 65; // A-Z
  if (code >= 97 && code <= 122) return code - 71; // a-z
  if (code >= 48 && code <= 57) return code + 4; // 0-9
  return code === 45 || code === 43 ? 62 : 63; // - or +, _ or /
}

/** Whether `length` data characters ending in `last` are the canonical encoding of some bytes. */
function canonicalEnd(length: number, last: number): boolean {
  switch (length % 4) {
    case 1:
      return false; // 6 bits: not a whole byte
    case 2:
      return (sextet(last) & 0x0f) === 0; // one byte: 4 unused bits
    case 3:
      return (sextet(last) & 0x03) === 0; // two bytes: 2 unused bits
    default:
      return true;
  }
}

/** Whether `text` is canonical unpadded base64url (what `Buffer#toString('base64url')` writes). */
export function isBase64url(text: string): boolean {
  return BASE64URL.test(text) && canonicalEnd(text.length, text.charCodeAt(text.length - 1));
}

/** The bytes of canonical unpadded base64url, or undefined for any other text. */
export function decodeBase64url(text: string): Buffer | undefined {
  return isBase64url(text) ? Buffer.from(text, 'base64url') : undefined;
}

/** The bytes of canonical padded base64 (what `Buffer#toString('base64')` writes), or undefined for any other text. */
export function decodeBase64(text: string): Buffer | undefined {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return undefined;
  const data = text.endsWith('==') ? text.length - 2 : text.endsWith('=') ? text.length - 1 : text.length;
  return canonicalEnd(data, text.charCodeAt(data - 1)) ? Buffer.from(text, 'base64') : undefined;
}
