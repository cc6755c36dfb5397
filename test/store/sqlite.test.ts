import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreUnavailableError } from '../../src/store/errors';
import { openSqliteStore } from '../../src/store/sqlite';
import { FLUSH_DELAY_MS, UsageBuffer } from '../../src/store/usage-buffer';
import { storeContract } from './contract';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const dir = mkdtempSync(join(tmpdir(), 'store-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let databases = 0;

storeContract({
  dialect: 'sqlite',
  async fresh() {
    const path = join(dir, `contract-${++databases}.sqlite`);
    openSqliteStore(path, { timeoutMs: 3000 }).db.$client.close(); // migrated once, like the primary does
    return { open: async () => openSqliteStore(path, { timeoutMs: 3000, migrate: false }) };
  },
});

// Issue 23: a full disk or a read-only file let the lock probe pass, so /health said up while every write failed.
describe('SQLite writes failing', () => {
  it('reports writes_failing with the code while writes fail, and up once a write succeeds again', async () => {
    const path = join(dir, `readonly-${++databases}.sqlite`);
    const store = openSqliteStore(path, { timeoutMs: 1000 });
    const key = await store.keys.insert({ name: null, plan: 'free', keyHash: 'h', prefix: 'ak_h', createdAt: 0 });
    const charge = () => store.quota.charge({ keyId: key.id, period: '2026-11', words: 5, wordLimit: 10_000, callLimit: null });
    expect(await charge()).not.toBeNull();
    store.db.$client.exec('PRAGMA query_only = 1'); // every write now fails with SQLITE_READONLY
    const error = await charge().catch((e) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(await store.health()).toEqual({ store: 'down', reason: 'writes_failing', code: 'SQLITE_READONLY' });
    store.usage.record({
      keyId: key.id,
      mode: 'single',
      words: 5,
      score: 1,
      status: 503,
      errorCode: 'store_unavailable',
      durationMs: 1,
      createdAt: 0,
    });
    await Bun.sleep(FLUSH_DELAY_MS + 50); // its write fails too and is kept
    expect(await store.health()).toMatchObject({ store: 'down' });
    store.db.$client.exec('PRAGMA query_only = 0');
    let state = await store.health();
    for (let i = 0; i < 30 && state.store !== 'up'; i++) {
      await Bun.sleep(100);
      state = await store.health();
    }
    expect(state).toEqual({ store: 'up' });
    expect(await store.usage.countForKey(key.id)).toBe(1);
    await store.close();
  });
});

describe("SQLite under another process's write lock", () => {
  /** A second connection holding the write lock, as an admin's `sqlite3` would. */
  function lockedStore(timeoutMs: number) {
    const path = join(dir, `locked-${++databases}.sqlite`);
    const store = openSqliteStore(path, { timeoutMs });
    const foreign = new Database(path);
    return { store, foreign, lock: () => foreign.exec('BEGIN IMMEDIATE'), release: () => foreign.exec('COMMIT') };
  }

  it('waits on timers, not in SQLite, and charges once the lock is released', async () => {
    const { store, foreign, lock, release } = lockedStore(3000);
    const key = await store.keys.insert({ name: null, plan: 'free', keyHash: 'h', prefix: 'ak_h', createdAt: 0 });
    lock();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const charged = store.quota.charge({ keyId: key.id, period: '2026-11', words: 50, wordLimit: 10_000, callLimit: null });
    const joined = Bun.sleep(100).then(() =>
      store.quota.charge({ keyId: key.id, period: '2026-11', words: 7, wordLimit: 10_000, callLimit: null }),
    );
    await Bun.sleep(300);
    // The event loop kept running while both charges waited (SQLite's own wait is 10 ms per attempt).
    expect(ticks).toBeGreaterThan(12);
    release();
    expect(await charged).toEqual({ wordsUsed: 50, calls: 0 });
    expect(await joined).toEqual({ wordsUsed: 57, calls: 0 });
    clearInterval(ticker);
    foreign.close();
    await store.close();
  });

  it('gives up at the deadline with StoreUnavailableError, having charged nothing, and reports itself down', async () => {
    const { store, foreign, lock, release } = lockedStore(400);
    const key = await store.keys.insert({ name: null, plan: 'free', keyHash: 'h', prefix: 'ak_h', createdAt: 0 });
    lock();
    const t0 = performance.now();
    const error = await store.quota
      .charge({ keyId: key.id, period: '2026-11', words: 50, wordLimit: 10_000, callLimit: null })
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error.reason).toBe('SQLITE_BUSY');
    expect(performance.now() - t0).toBeGreaterThan(350);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(await store.health()).toEqual({ store: 'down', reason: 'locked', code: 'SQLITE_BUSY' });
    await expect(store.quota.refund(key.id, '2026-11', 1, 0)).rejects.toBeInstanceOf(StoreUnavailableError);
    release();
    expect(await store.health()).toEqual({ store: 'up' });
    expect(await store.quota.read(key.id, '2026-11', true)).toEqual({ wordsUsed: 0, calls: 0 });
    foreign.close();
    await store.close();
  });
});

describe('usage buffer', () => {
  it('keeps the events of a failed write and retries them until the store takes them', async () => {
    const written: number[] = [];
    const reports: string[] = [];
    let failing = true;
    const buffer = new UsageBuffer(
      (events) => {
        if (failing) throw Object.assign(new Error('locked'), { code: 'SQLITE_BUSY' });
        written.push(...events.map((e) => e.words));
      },
      (name) => reports.push(name),
    );
    const event = (words: number) => ({
      keyId: 1,
      mode: 'single' as const,
      words,
      score: null,
      status: 200,
      errorCode: null,
      durationMs: 1,
      createdAt: 0,
    });
    buffer.record(event(1));
    await Bun.sleep(FLUSH_DELAY_MS * 2);
    buffer.record(event(2));
    expect(written).toEqual([]);
    expect(buffer.queued).toBe(2);
    await expect(buffer.flush()).rejects.toThrow('locked');
    expect(buffer.queued).toBe(2);
    failing = false;
    await Bun.sleep(1200); // the retry timer (backoff at most 1 s)
    expect(written).toEqual([1, 2]);
    expect(reports).toEqual(['usage_flush_failed', 'usage_flush_recovered']);
    buffer.stop();
  });
});
