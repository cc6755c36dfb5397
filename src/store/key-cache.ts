/**
 * A bounded cache in front of KeyStore.findActiveByHash, for stores where a lookup is a network
 * round trip (PostgreSQL). An entry lives at most KEY_CACHE_TTL_MS, so a key revoked on any
 * instance is refused by every instance within that time (issue 14: within 1 s); a revocation
 * through this same store drops its entries at once. Unknown hashes are cached too, so a client
 * sending a well-formed wrong key does not cost a query per request.
 */
import type { ApiKey, KeyStore } from './types';

/** Longest an answer is reused: revocation reaches every instance within this (the bound is 1 s). */
export const KEY_CACHE_TTL_MS = 500;
/** Most cached hashes; the oldest entry goes first (Map keeps insertion order). */
export const KEY_CACHE_MAX_ENTRIES = 10_000;

interface Entry {
  key: ApiKey | null;
  expiresAt: number;
}

/** `keys` with its authentication lookup cached; every other call goes straight through. */
export function cachedKeyStore(keys: KeyStore, ttlMs: number = KEY_CACHE_TTL_MS, maxEntries: number = KEY_CACHE_MAX_ENTRIES): KeyStore {
  const entries = new Map<string, Entry>();
  // Concurrent misses for one hash share one query.
  const inFlight = new Map<string, Promise<ApiKey | null>>();
  const forget = (id: number) => {
    for (const [hash, entry] of entries) if (entry.key?.id === id) entries.delete(hash);
  };
  return {
    ...keys,
    async findActiveByHash(hash) {
      const now = performance.now();
      const hit = entries.get(hash);
      if (hit && hit.expiresAt > now) return hit.key;
      let pending = inFlight.get(hash);
      if (!pending) {
        pending = keys.findActiveByHash(hash).finally(() => inFlight.delete(hash));
        inFlight.set(hash, pending);
        const key = await pending;
        entries.delete(hash);
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        // The TTL counts from the lookup's start: an answer is never older than ttlMs.
        entries.set(hash, { key, expiresAt: now + ttlMs });
        return key;
      }
      return pending;
    },
    async revoke(id, at) {
      const row = await keys.revoke(id, at);
      forget(id);
      return row;
    },
  };
}
