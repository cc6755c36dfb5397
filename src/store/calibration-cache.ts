/**
 * A bounded cache in front of the store's calibration rows (issue 34: a detection with a profile costs
 * no more than one without). A profile never changes once made, so the profile is read, parsed and
 * checked (parseProfile, decide/profile.ts) once per load and kept parsed; only its existence can
 * change (a DELETE on any instance). An entry is trusted for CALIBRATION_CACHE_TTL_MS, then one cheap
 * existence query renews it: a profile deleted on another instance stops being used everywhere within
 * that time, and at once on the instance that deleted it. Misses are not cached: a profile made on one
 * instance is usable on the next request anywhere. Another key's id is asked of the store like an
 * unknown one: answering it from the cache made it about 100 µs faster, which told that the id exists
 * (issue 40).
 *
 * A stored row that is not a valid profile (edited in the database: issue 44 item 4) is never applied:
 * `lookup` throws parseProfile's `calibration_invalid`, and the failure is cached like a profile (the
 * row is not parsed again on every detection naming it).
 *
 * The cache is bounded by bytes, not entries (issue 44 item 7: 256 large adapted profiles held 887 MB):
 * each entry counts its stored JSON's length (a fair proxy of what the parsed profile holds, measured in
 * docs/faults.md), and the least recently used go first once the total passes the budget.
 */
import { type CalibrationProfile, parseProfile } from '../detector/decide/profile';
import type { CalibrationRows, CalibrationStore } from './types';

/** Longest a cached profile is used without asking the store whether it still exists. */
export const CALIBRATION_CACHE_TTL_MS = 1000;
/**
 * Most cached profiles per process whatever their size (a bound on the Map for tiny profiles; the byte
 * budget is the one that binds for real ones).
 */
export const CALIBRATION_CACHE_MAX_ENTRIES = 256;
/** The byte budget when none is given: CALIBRATION_CACHE_MB's default for MEMORY_LIMIT_MB's default 1024 (src/config.ts). */
export const CALIBRATION_CACHE_DEFAULT_BYTES = 128 * 2 ** 20;

/** How the cache is bounded. */
export interface CalibrationCacheOptions {
  ttlMs?: number;
  /** Most bytes (stored JSON length) of profiles kept; a profile larger than this alone is parsed and used but not kept. */
  maxBytes?: number;
  maxEntries?: number;
}

/** What a load left: the parsed profile, or why the row is not one. */
type Loaded = { profile: CalibrationProfile; error?: undefined } | { profile?: undefined; error: Error };

interface Entry {
  keyId: number;
  loaded: Loaded;
  bytes: number;
  checkedAt: number;
}

/** A CalibrationStore with its accounting: what the cache holds now. */
export interface CachedCalibrationStore extends CalibrationStore {
  cacheStats(): { entries: number; bytes: number; maxBytes: number };
}

/** Parses and checks a stored row once: the profile, or the `calibration_invalid` it fails with. */
function load(json: string): Loaded {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    value = undefined; // not JSON: parseProfile answers "not a JSON object"
  }
  try {
    return { profile: parseProfile(value) };
  } catch (error) {
    return { error: error as Error };
  }
}

const answer = (loaded: Loaded): CalibrationProfile => {
  if (loaded.error) throw loaded.error;
  return loaded.profile!;
};

/** `calibrations` with `lookup` parsed, checked and cached; every other call goes straight through (`remove` also drops the entry). */
export function cachedCalibrationStore(calibrations: CalibrationRows, options: CalibrationCacheOptions = {}): CachedCalibrationStore {
  const {
    ttlMs = CALIBRATION_CACHE_TTL_MS,
    maxBytes = CALIBRATION_CACHE_DEFAULT_BYTES,
    maxEntries = CALIBRATION_CACHE_MAX_ENTRIES,
  } = options;
  const entries = new Map<string, Entry>();
  let bytes = 0;
  // Concurrent lookups of one id share one query.
  const inFlight = new Map<string, Promise<Loaded | null>>();
  const drop = (id: string) => {
    const entry = entries.get(id);
    if (!entry) return;
    entries.delete(id);
    bytes -= entry.bytes;
  };
  const remember = (id: string, entry: Entry) => {
    drop(id);
    if (entry.bytes > maxBytes) return;
    // Least recently used first (Map keeps insertion order).
    while (entries.size && (entries.size >= maxEntries || bytes + entry.bytes > maxBytes)) drop(entries.keys().next().value as string);
    entries.set(id, entry);
    bytes += entry.bytes;
  };

  async function refresh(keyId: number, id: string, cached: Entry | undefined, now: number): Promise<Loaded | null> {
    if (cached) {
      if (!(await calibrations.exists(keyId, id))) {
        drop(id);
        return null;
      }
      remember(id, { ...cached, checkedAt: now });
      return cached.loaded;
    }
    const json = await calibrations.read(keyId, id);
    if (json === null) return null;
    const loaded = load(json);
    remember(id, { keyId, loaded, bytes: json.length, checkedAt: now });
    return loaded;
  }

  return {
    ...calibrations,
    async lookup(keyId, id) {
      const now = performance.now();
      const cached = entries.get(id);
      // Only the owner's entry counts: for another key, the id takes the path of one never cached.
      const hit = cached?.keyId === keyId ? cached : undefined;
      if (hit && now - hit.checkedAt < ttlMs) {
        // Most recently used last: the bound drops the profile nobody has named for longest.
        entries.delete(id);
        entries.set(id, hit);
        return answer(hit.loaded);
      }
      const flightKey = `${keyId}:${id}`;
      let pending = inFlight.get(flightKey);
      if (!pending) {
        pending = refresh(keyId, id, hit, now).finally(() => inFlight.delete(flightKey));
        inFlight.set(flightKey, pending);
      }
      const loaded = await pending;
      return loaded === null ? null : answer(loaded);
    },
    async remove(keyId, id) {
      const removed = await calibrations.remove(keyId, id);
      if (entries.get(id)?.keyId === keyId) drop(id);
      return removed;
    },
    cacheStats: () => ({ entries: entries.size, bytes, maxBytes }),
  };
}
