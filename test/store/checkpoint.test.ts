import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'bun:sqlite';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { DEFAULT_AUTOCHECKPOINT_PAGES, startCheckpointer, WAL_TRUNCATE_BYTES } from '../../src/store/sqlite/checkpoint';
import { convertToIncrementalVacuum, openDatabase, type Db } from '../../src/store/sqlite/client';
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

  it('empties the WAL once it passes WAL_TRUNCATE_BYTES, and hands free pages back (issue 29)', async () => {
    const { db, path } = fileDb('d.sqlite');
    // This test writes synchronously beside the worker's TRUNCATE (the server retries asynchronously instead).
    db.$client.exec('PRAGMA busy_timeout = 2000');
    db.$client.exec('PRAGMA wal_autocheckpoint = 0');
    db.$client.run('CREATE TABLE filler (blob BLOB)');
    const insert = db.$client.prepare('INSERT INTO filler VALUES (?)');
    db.$client.transaction(() => {
      for (let i = 0; i < 3_000; i++) insert.run(new Uint8Array(4_000));
    })();
    const checkpointer = startCheckpointer(db, path, { intervalMs: 20 });
    const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);
    expect(size(`${path}-wal`)).toBeGreaterThan(WAL_TRUNCATE_BYTES);
    for (let i = 0; i < 100 && size(`${path}-wal`) > WAL_TRUNCATE_BYTES; i++) await Bun.sleep(20);
    expect(size(`${path}-wal`)).toBeLessThan(WAL_TRUNCATE_BYTES);
    // Deleted rows give their pages back to the file system (incremental auto-vacuum).
    const full = size(path);
    db.$client.run('DELETE FROM filler');
    for (let i = 0; i < 100 && size(path) > full / 2; i++) await Bun.sleep(20);
    expect(size(path)).toBeLessThan(full / 2);
    checkpointer.stop();
    closeDatabase(db);
  });

  it('converts a file made before issue 29 to incremental auto-vacuum', () => {
    const path = join(dir, 'old.sqlite');
    const old = new Database(path);
    old.exec('PRAGMA journal_mode = WAL');
    old.exec('CREATE TABLE t (x)');
    old.close();
    const db = openDatabase(path);
    expect(db.$client.query('PRAGMA auto_vacuum').get()).toEqual({ auto_vacuum: 0 });
    expect(convertToIncrementalVacuum(db)).toBe(true);
    expect(db.$client.query('PRAGMA auto_vacuum').get()).toEqual({ auto_vacuum: 2 });
    expect(convertToIncrementalVacuum(db)).toBe(false);
    closeDatabase(db);
  });

  it('does nothing for an in-memory database', () => {
    const db = openDatabase(':memory:');
    startCheckpointer(db, ':memory:').stop();
    expect(autocheckpoint(db)).toBe(DEFAULT_AUTOCHECKPOINT_PAGES);
    closeDatabase(db);
  });
});
