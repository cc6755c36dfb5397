/** Opens bun:sqlite with the project's pragmas and wraps it in Drizzle. */
import { Database as SQLite } from 'bun:sqlite';
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite';
import { ensureDatabaseDir } from '../../config';
import * as schema from './schema';

/** The Drizzle database handle the SQLite store works on (with the raw client on `$client`). */
export type Db = BunSQLiteDatabase<typeof schema> & { $client: SQLite };

/**
 * Milliseconds SQLite's own busy handler waits for another connection's write lock. bun:sqlite
 * waits synchronously, freezing the whole event loop: with the old 5,000 ms, another process
 * holding a write lock (an admin's `sqlite3`, a backup) froze /health for 4.9 s. Contention
 * between the service's own processes clears within its first 1-2 ms sleep; anything longer is
 * retried asynchronously up to STORE_TIMEOUT_MS (busy.ts), so the loop is never blocked longer
 * than this per attempt.
 */
export const BUSY_TIMEOUT_MS = 10;

/** Size a restarted WAL is truncated to (PRAGMA journal_size_limit): the issue 29 bound is tens of MB. */
export const JOURNAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Opens (creating its directory if needed) the SQLite file in WAL mode with synchronous=NORMAL.
 * `startupWaitMs` is the busy timeout while opening (switching to WAL takes a lock; nothing is
 * served yet, so waiting is harmless); call useServingBusyTimeout() before serving.
 */
export function openDatabase(path: string, startupWaitMs: number = BUSY_TIMEOUT_MS): Db {
  ensureDatabaseDir(path);
  const client = new SQLite(path, { create: true, strict: true });
  try {
    client.exec(`PRAGMA busy_timeout = ${Math.round(startupWaitMs)}`);
    // Takes effect on a new file only (before its first table): free pages can then be handed back
    // to the file system a few at a time (checkpoint.ts); an older file is converted once by the server.
    client.exec('PRAGMA auto_vacuum = INCREMENTAL');
    client.exec('PRAGMA journal_mode = WAL');
    // A WAL that restarts is cut back to this size instead of keeping its largest size forever.
    client.exec(`PRAGMA journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
    // NORMAL is durable in WAL mode except for the last commits on power loss; good for counters.
    client.exec('PRAGMA synchronous = NORMAL');
    client.exec('PRAGMA foreign_keys = ON');
  } catch (error) {
    client.close();
    throw error;
  }
  return drizzle({ client, schema }) as Db;
}

/** Sets the short busy timeout the service runs with (the rest of the wait is asynchronous: busy.ts). */
export function useServingBusyTimeout(db: Db): void {
  db.$client.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
}

/**
 * Converts a file made before issue 29 (auto_vacuum NONE) to incremental auto-vacuum with one
 * VACUUM, so the space of deleted rows can be handed back; returns true when it did. Run by the
 * server's primary before it serves (a VACUUM rewrites the file: ~1 s per 100 MB here); a file in
 * use by another process is left as it is (SQLITE_BUSY) and converted at a later start.
 */
export function convertToIncrementalVacuum(db: Db): boolean {
  const mode = db.$client.query('PRAGMA auto_vacuum').get() as { auto_vacuum: number };
  if (mode.auto_vacuum !== 0) return false;
  db.$client.exec('PRAGMA auto_vacuum = INCREMENTAL');
  try {
    db.$client.exec('VACUUM');
  } catch {
    return false;
  }
  return true;
}
