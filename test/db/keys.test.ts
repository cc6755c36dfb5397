import { describe, expect, it } from 'bun:test';
import { eq } from 'drizzle-orm';
import { apiKeys } from '../../src/db/schema';
import { AmbiguousKeyError, createKey, findActiveKey, generateKey, resolveKey, revokeKey } from '../../src/modules/keys';
import { freshDb } from '../http/helpers';

describe('keys service', () => {
  it('generates ak_ keys with 40 base62 characters', () => {
    for (let i = 0; i < 200; i++) expect(generateKey()).toMatch(/^ak_[0-9A-Za-z]{40}$/);
  });

  it('finds an active key with the same row shape drizzle reads', () => {
    const db = freshDb();
    const created = createKey(db, { plan: 'free', name: 'n' }, 1_700_000_000_000);
    const viaDrizzle = db.select().from(apiKeys).where(eq(apiKeys.id, created.id)).get();
    expect(findActiveKey(db, created.key)).toEqual(viaDrizzle!);
    expect(findActiveKey(db, created.key + 'x')).toBeNull();
    revokeKey(db, String(created.id));
    expect(findActiveKey(db, created.key)).toBeNull();
  });

  it('resolves by id, prefix or full key, and refuses an ambiguous prefix', () => {
    const db = freshDb();
    const keys = Array.from({ length: 80 }, () => createKey(db, { plan: 'free' }));
    const k = keys[5];
    expect(resolveKey(db, String(k.id))?.id).toBe(k.id);
    expect(resolveKey(db, k.prefix)?.id).toBe(k.id);
    expect(resolveKey(db, k.key)?.id).toBe(k.id);
    expect(resolveKey(db, '999')).toBeNull();
    const shared = keys.find((a) => keys.some((b) => b !== a && b.prefix[3] === a.prefix[3]))!;
    expect(() => resolveKey(db, shared.prefix.slice(0, 4))).toThrow(AmbiguousKeyError);
    expect(resolveKey(db, 'ak_%')).toBeNull();
  });
});
