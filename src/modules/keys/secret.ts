/** API key secrets: generation (ak_ + base62), SHA-256 hashing and the display prefix. */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Random characters after "ak_": 40 base62 chars carry ~238 bits. */
export const KEY_RANDOM_CHARS = 40;
/** Every key starts with this marker, so leaked keys are easy to spot and grep for. */
export const KEY_MARKER = 'ak_';
/** Characters of the key shown in listings: "ak_" plus 8 random characters. */
export const PREFIX_LENGTH = KEY_MARKER.length + 8;
// 248 = 4 * 62: bytes at or above it are rejected so every character is equally likely.
const UNBIASED_BYTE_LIMIT = 248;

/** A new random key: "ak_" followed by 40 base62 characters from the CSPRNG. */
export function generateKey(): string {
  let out = KEY_MARKER;
  while (out.length < KEY_MARKER.length + KEY_RANDOM_CHARS) {
    for (const byte of crypto.getRandomValues(new Uint8Array(64))) {
      if (byte < UNBIASED_BYTE_LIMIT) out += BASE62[byte % 62];
      if (out.length === KEY_MARKER.length + KEY_RANDOM_CHARS) break;
    }
  }
  return out;
}

/** Hex SHA-256 of a key: the only form in which a key is stored. */
export function hashKey(key: string): string {
  return new Bun.CryptoHasher('sha256').update(key).digest('hex');
}

/** The short, non-secret display prefix of a key. */
export function keyPrefix(key: string): string {
  return key.slice(0, PREFIX_LENGTH);
}

/** Cheap shape check so garbage never reaches the database. */
export function looksLikeKey(value: string): boolean {
  return value.length >= KEY_MARKER.length + 32 && value.length <= 128 && value.startsWith(KEY_MARKER) && /^ak_[0-9A-Za-z]+$/.test(value);
}
