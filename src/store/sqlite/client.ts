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
    client.exec('PRAGMA journal_mode = WAL');
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
