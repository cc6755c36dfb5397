/** Keys module: API key administration and authentication lookups (no HTTP routes). */
export * from './service';
export { generateKey, hashKey, keyPrefix, looksLikeKey, KEY_MARKER, PREFIX_LENGTH } from './secret';
