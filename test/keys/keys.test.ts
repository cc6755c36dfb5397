import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { AmbiguousKeyError, createKey, findActiveKey, generateKey, hashKey, resolveKey, revokeKey } from '../../src/modules/keys';
import { freshStore } from '../http/helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

describe('keys service', () => {
  it('generates ak_ keys with 40 base62 characters', () => {
    for (let i = 0; i < 200; i++) expect(generateKey()).toMatch(/^ak_[0-9A-Za-z]{40}$/);
  });

  it('finds an active key by its secret, never a malformed, unknown or revoked one', async () => {
    const { keys } = freshStore();
    const created = await createKey(keys, { plan: 'free', name: 'n' }, 1_700_000_000_000);
    expect(await findActiveKey(keys, created.key)).toEqual({
      id: created.id,
      name: 'n',
      plan: 'free',
      keyHash: hashKey(created.key),
      prefix: created.prefix,
      status: 'active',
      createdAt: 1_700_000_000_000,
      revokedAt: null,
    });
    expect(await findActiveKey(keys, `${created.key}x`)).toBeNull();
    expect(await findActiveKey(keys, 'not a key')).toBeNull();
    await revokeKey(keys, String(created.id));
    expect(await findActiveKey(keys, created.key)).toBeNull();
  });

  it('resolves by id, prefix or full key, and refuses an ambiguous prefix', async () => {
    const { keys } = freshStore();
    const all: Awaited<ReturnType<typeof createKey>>[] = [];
    for (let i = 0; i < 80; i++) all.push(await createKey(keys, { plan: 'free' }));
    const k = all[5];
    expect((await resolveKey(keys, String(k.id)))?.id).toBe(k.id);
    expect((await resolveKey(keys, k.prefix))?.id).toBe(k.id);
    expect((await resolveKey(keys, k.key))?.id).toBe(k.id);
    expect(await resolveKey(keys, '999')).toBeNull();
    expect(await resolveKey(keys, '99999999999999999999')).toBeNull();
    const shared = all.find((a) => all.some((b) => b !== a && b.prefix[3] === a.prefix[3]))!;
    await expect(resolveKey(keys, shared.prefix.slice(0, 4))).rejects.toThrow(AmbiguousKeyError);
    expect(await resolveKey(keys, 'ak_%')).toBeNull();
    // `ak_` is the start of every prefix: ambiguous, naming the first keys by id, not "no key matches".
    const every = await resolveKey(keys, 'ak_').catch((error: unknown) => error);
    expect(every).toBeInstanceOf(AmbiguousKeyError);
    const ambiguous = every as AmbiguousKeyError;
    expect(ambiguous.matches.map((key) => key.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(ambiguous.more).toBe(true);
    expect(ambiguous.message).toStartWith(`"ak_" matches more than 10 keys: #1 ${all[0].prefix}, #2 ${all[1].prefix},`);
  });
});
