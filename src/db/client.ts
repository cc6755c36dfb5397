/** Opens bun:sqlite with the project's pragmas and wraps it in Drizzle. */
import { Database as SQLite } from 'bun:sqlite';
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite';
import { ensureDatabaseDir } from '../config';
import * as schema from './schema';

/** The Drizzle database handle passed to services (with the raw client on `$client`). */
export type Db = BunSQLiteDatabase<typeof schema> & { $client: SQLite };

/** Milliseconds a writer waits for another connection's lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

/** Opens (creating its directory if needed) the SQLite file in WAL mode with synchronous=NORMAL. */
export function openDatabase(path: string): Db {
  ensureDatabaseDir(path);
  const client = new SQLite(path, { create: true, strict: true });
  client.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  client.exec('PRAGMA journal_mode = WAL');
  // NORMAL is durable in WAL mode except for the last commits on power loss; good for counters.
  client.exec('PRAGMA synchronous = NORMAL');
  client.exec('PRAGMA foreign_keys = ON');
  return drizzle({ client, schema }) as Db;
}

const closeHooks = new WeakMap<Db, Set<() => void>>();

/** Runs `hook` just before `db` closes: for writers that buffer rows. */
export function beforeClose(db: Db, hook: () => void): void {
  let hooks = closeHooks.get(db);
  if (!hooks) {
    hooks = new Set();
    closeHooks.set(db, hooks);
  }
  hooks.add(hook);
}

/** Closes the underlying SQLite connection (after its buffered writes, checkpointing the WAL). */
export function closeDatabase(db: Db): void {
  const hooks = closeHooks.get(db);
  closeHooks.delete(db);
  for (const hook of hooks ?? []) hook();
  db.$client.close();
}
