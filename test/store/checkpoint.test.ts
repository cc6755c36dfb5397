import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_AUTOCHECKPOINT_PAGES, startCheckpointer } from '../../src/store/sqlite/checkpoint';
import { openDatabase, type Db } from '../../src/store/sqlite/client';
import { migrateDatabase } from '../../src/store/sqlite/migrate';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const closeDatabase = (db: Db) => db.$client.close();
/** One committed write (a key row). */
function commitOne(db: Db): void {
  db.$client.run("INSERT INTO api_keys (plan, key_hash, prefix, created_at) VALUES ('free', ?, 'ak_x', 0)", [crypto.randomUUID()]);
}

const dir = mkdtempSync(join(tmpdir(), 'checkpoint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fileDb(name: string): { db: Db; path: string } {
  const path = join(dir, name);
  const db = openDatabase(path);
  migrateDatabase(db);
  return { db, path };
}

const autocheckpoint = (db: Db) =>
  (db.$client.query('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint;

function waitFor<T>(executor: (resolve: (value: T) => void) => void, ms = 5_000): Promise<T> {
  return Promise.race([
    new Promise<T>(executor),
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`nothing after ${ms} ms`)), ms)),
  ]);
}

describe('background WAL checkpoints', () => {
  it('turns autocheckpoint off and checkpoints the commits from a worker thread', async () => {
    const { db, path } = fileDb('a.sqlite');
    let checkpointer = { stop() {} };
    const frames = waitFor<number>((resolve) => {
      checkpointer = startCheckpointer(db, path, { intervalMs: 20, onCheckpoint: resolve, onError: () => resolve(-1) });
    });
    expect(autocheckpoint(db)).toBe(0);
    for (let i = 0; i < 20; i++) commitOne(db);
    expect(await frames).toBeGreaterThan(0);
    checkpointer.stop();
    closeDatabase(db);
  });

  it('gives checkpointing back to the connection when stopped', () => {
    const { db, path } = fileDb('b.sqlite');
    const checkpointer = startCheckpointer(db, path);
    checkpointer.stop();
    expect(autocheckpoint(db)).toBe(DEFAULT_AUTOCHECKPOINT_PAGES);
    checkpointer.stop();
    closeDatabase(db);
  });

  it('restores autocheckpoint and reports when the worker cannot open the database', async () => {
    const { db } = fileDb('c.sqlite');
    const name = await waitFor<string>((resolve) => startCheckpointer(db, join(dir, 'missing', 'x.sqlite'), { onError: resolve }));
    expect(name).toBeString();
    expect(autocheckpoint(db)).toBe(DEFAULT_AUTOCHECKPOINT_PAGES);
    closeDatabase(db);
  });

  it('does nothing for an in-memory database', () => {
    const db = openDatabase(':memory:');
    startCheckpointer(db, ':memory:').stop();
    expect(autocheckpoint(db)).toBe(DEFAULT_AUTOCHECKPOINT_PAGES);
    closeDatabase(db);
  });
});
