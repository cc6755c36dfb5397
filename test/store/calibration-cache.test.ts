/** The per-process cache of calibration profiles (issue 34): what it saves the store, and what it never hides. */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { cachedCalibrationStore } from '../../src/store/calibration-cache';
import type { CalibrationRows } from '../../src/store/types';
import { smallProfile } from '../fixtures/profile-json';
import { PROFILE_FORMAT } from '../../src/detector/decide/profile';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** A store of one profile per id, counting the queries it answers. */
function countingStore(rows: Map<string, number>) {
  const calls = { lookup: 0, exists: 0 };
  const store: CalibrationRows = {
    insert: async () => 'stored',
    list: async () => [],
    count: async () => 0,
    get: async () => null,
    async exists(keyId, id) {
      calls.exists++;
      return rows.get(id) === keyId;
    },
    async read(keyId, id) {
      calls.lookup++;
      await Bun.sleep(5);
      return rows.get(id) === keyId ? JSON.stringify(smallProfile(id)) : null;
    },
    async remove(keyId, id) {
      const had = rows.get(id) === keyId;
      rows.delete(id);
      return had;
    },
  };
  return { store, calls };
}

describe('calibration cache', () => {
  it('parses a profile once: concurrent lookups share one query, later ones none within the TTL', async () => {
    const { store, calls } = countingStore(new Map([['cal_a', 1]]));
    const cached = cachedCalibrationStore(store, { ttlMs: 60_000 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => cached.lookup(1, 'cal_a')));
    expect(answers.every((a) => a === answers[0] && a !== null)).toBe(true);
    await cached.lookup(1, 'cal_a');
    expect(calls).toEqual({ lookup: 1, exists: 0 });
  });

  it('answers another key’s id as unknown, and never caches a miss', async () => {
    const rows = new Map([['cal_a', 1]]);
    const { store, calls } = countingStore(rows);
    const cached = cachedCalibrationStore(store, { ttlMs: 60_000 });
    await cached.lookup(1, 'cal_a');
    expect(await cached.lookup(2, 'cal_a')).toBeNull();
    expect(await cached.lookup(1, 'cal_b')).toBeNull();
    rows.set('cal_b', 1); // made on another instance
    expect(await cached.lookup(1, 'cal_b')).toMatchObject({ name: 'cal_b' });
    expect(calls.lookup).toBe(4);
    // The owner's entry is still cached: no query.
    expect(await cached.lookup(1, 'cal_a')).toMatchObject({ name: 'cal_a' });
    expect(calls.lookup).toBe(4);
  });

  it('asks the store about another key’s cached id exactly as about an unknown one (issue 40: it answered at once, 100 µs sooner)', async () => {
    const { store, calls } = countingStore(new Map([['cal_a', 1]]));
    const cached = cachedCalibrationStore(store, { ttlMs: 60_000 });
    await cached.lookup(1, 'cal_a');
    const before = { ...calls };
    expect(await cached.lookup(2, 'cal_a')).toBeNull();
    const foreign = { lookup: calls.lookup - before.lookup, exists: calls.exists - before.exists };
    expect(await cached.lookup(2, 'cal_unknown')).toBeNull();
    const unknown = { lookup: calls.lookup - before.lookup - foreign.lookup, exists: calls.exists - before.exists - foreign.exists };
    expect(foreign).toEqual(unknown);
    expect(foreign).toEqual({ lookup: 1, exists: 0 });
  });

  it('after the TTL only asks whether the profile still exists, and forgets a deleted one', async () => {
    const rows = new Map([['cal_a', 1]]);
    const { store, calls } = countingStore(rows);
    const cached = cachedCalibrationStore(store, { ttlMs: 20 });
    await cached.lookup(1, 'cal_a');
    await Bun.sleep(30);
    expect(await cached.lookup(1, 'cal_a')).not.toBeNull();
    expect(calls).toEqual({ lookup: 1, exists: 1 });
    rows.delete('cal_a'); // deleted on another instance
    await Bun.sleep(30);
    expect(await cached.lookup(1, 'cal_a')).toBeNull();
    // Deleted through this instance: gone at once, whatever the TTL.
    rows.set('cal_c', 1);
    const long = cachedCalibrationStore(store, { ttlMs: 60_000 });
    await long.lookup(1, 'cal_c');
    expect(await long.remove(1, 'cal_c')).toBe(true);
    expect(await long.lookup(1, 'cal_c')).toBeNull();
  });

  it('keeps at most its bound of profiles, dropping the least recently used', async () => {
    const rows = new Map(Array.from({ length: 5 }, (_, i) => [`cal_${i}`, 1] as const));
    const { store, calls } = countingStore(rows);
    const cached = cachedCalibrationStore(store, { ttlMs: 60_000, maxEntries: 3 });
    for (let i = 0; i < 3; i++) await cached.lookup(1, `cal_${i}`);
    await cached.lookup(1, 'cal_0'); // used again: now the most recent
    await cached.lookup(1, 'cal_3'); // drops cal_1, the least recently used
    expect(calls.lookup).toBe(4);
    await cached.lookup(1, 'cal_0');
    await cached.lookup(1, 'cal_2');
    expect(calls.lookup).toBe(4);
    await cached.lookup(1, 'cal_1'); // dropped: read again
    expect(calls.lookup).toBe(5);
  });

  it('checks a stored row once per load (issue 44): a damaged one throws calibration_invalid, cached like a profile', async () => {
    const { store, calls } = countingStore(new Map([['cal_bad', 1]]));
    const damaged: Record<string, string> = { cal_bad: JSON.stringify({ ...smallProfile('x'), format: 99 }) };
    const cached = cachedCalibrationStore({ ...store, read: async (k, id) => (await store.read(k, id)) && damaged[id] }, { ttlMs: 60_000 });
    for (let i = 0; i < 3; i++) {
      const error = await cached.lookup(1, 'cal_bad').catch((e) => e);
      expect([error.code, error.status, error.params.reason]).toEqual([
        'calibration_invalid',
        400,
        `format 99, expected ${PROFILE_FORMAT}`,
      ]);
    }
    expect(calls.lookup).toBe(1);
    const notJson = cachedCalibrationStore({ ...store, read: async () => '{"format": 2, "langu' });
    expect(await notJson.lookup(1, 'cal_bad').catch((e) => e.code)).toBe('calibration_invalid');
  });

  it('keeps at most its budget of bytes (issue 44 item 7: 256 entries whatever their size held 887 MB)', async () => {
    const rows = new Map(Array.from({ length: 40 }, (_, i) => [`cal_${i}`, 1] as const));
    const { store, calls } = countingStore(rows);
    const size = JSON.stringify(smallProfile('cal_0')).length;
    const cached = cachedCalibrationStore(store, { ttlMs: 60_000, maxBytes: size * 10.5 });
    for (let i = 0; i < 40; i++) await cached.lookup(1, `cal_${i}`);
    const stats = cached.cacheStats();
    expect(stats.bytes).toBeLessThanOrEqual(stats.maxBytes);
    expect(stats.entries).toBe(10);
    expect(stats.bytes).toBe(10 * (size + 1)); // cal_30..cal_39: names one character longer than cal_0
    await cached.lookup(1, 'cal_39'); // kept
    expect(calls.lookup).toBe(40);
    await cached.lookup(1, 'cal_0'); // dropped long ago: read again
    expect(calls.lookup).toBe(41);
    // A profile larger than the whole budget is used, never kept.
    const tiny = cachedCalibrationStore(store, { ttlMs: 60_000, maxBytes: size - 1 });
    expect(await tiny.lookup(1, 'cal_1')).toMatchObject({ name: 'cal_1' });
    expect(tiny.cacheStats()).toMatchObject({ entries: 0, bytes: 0 });
  });
});
