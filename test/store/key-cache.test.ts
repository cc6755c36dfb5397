import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { cachedKeyStore } from '../../src/store/key-cache';
import type { ApiKey, KeyStore } from '../../src/store/types';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** A KeyStore over a Map that counts its lookups. */
function countingStore() {
  const rows = new Map<string, ApiKey>();
  let lookups = 0;
  const key = (id: number): ApiKey => ({
    id,
    name: null,
    plan: 'free',
    keyHash: `h${id}`,
    prefix: 'ak_x',
    status: 'active',
    createdAt: 0,
    revokedAt: null,
  });
  const store = {
    async findActiveByHash(hash: string) {
      lookups++;
      await Bun.sleep(1);
      const row = rows.get(hash);
      return row && row.status === 'active' ? row : null;
    },
    async revoke(id: number, at: number) {
      const row = [...rows.values()].find((r) => r.id === id);
      if (row) Object.assign(row, { status: 'revoked', revokedAt: at });
      return row ?? null;
    },
  } as unknown as KeyStore;
  return { store, rows, key, lookups: () => lookups };
}

describe('key cache (PostgreSQL)', () => {
  it('answers from memory within the TTL, and from the store after it: a revocation elsewhere shows within the TTL', async () => {
    const { store, rows, key, lookups } = countingStore();
    rows.set('h1', key(1));
    const cached = cachedKeyStore(store, 100);
    expect((await cached.findActiveByHash('h1'))?.id).toBe(1);
    expect((await cached.findActiveByHash('h1'))?.id).toBe(1);
    expect(lookups()).toBe(1);
    rows.get('h1')!.status = 'revoked'; // revoked by another instance
    expect((await cached.findActiveByHash('h1'))?.id).toBe(1);
    await Bun.sleep(120);
    expect(await cached.findActiveByHash('h1')).toBeNull();
    expect(lookups()).toBe(2);
  });

  it('caches unknown keys too, shares one lookup among concurrent misses, and stays within its size', async () => {
    const { store, lookups } = countingStore();
    const cached = cachedKeyStore(store, 1000, 3);
    await Promise.all(Array.from({ length: 10 }, () => cached.findActiveByHash('nope')));
    expect(lookups()).toBe(1);
    expect(await cached.findActiveByHash('nope')).toBeNull();
    expect(lookups()).toBe(1);
    for (const hash of ['a', 'b', 'c']) await cached.findActiveByHash(hash);
    expect(lookups()).toBe(4);
    await cached.findActiveByHash('nope'); // evicted (oldest of 4 in a cache of 3)
    expect(lookups()).toBe(5);
  });

  it('forgets a key revoked through itself at once', async () => {
    const { store, rows, key } = countingStore();
    rows.set('h7', key(7));
    const cached = cachedKeyStore(store, 60_000);
    expect((await cached.findActiveByHash('h7'))?.id).toBe(7);
    await cached.revoke(7, 123);
    expect(await cached.findActiveByHash('h7')).toBeNull();
  });
});
