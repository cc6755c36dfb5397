/** The SQLite store: one file shared by the WORKERS processes of one machine (the embedded default). */
import { resolve } from 'node:path';
import { cachedCalibrationStore } from '../calibration-cache';
import { StoreOpenError, driverCode } from '../errors';
import { HEALTH_LOCK_PROBE_MS, probeHealth } from '../health';
import { watchQuotaWrites, watchRateWrites } from '../watch-writes';
import { WriteHealth } from '../write-health';
import type { Store } from '../types';
import type { StoreOptions } from '../options';
import { retryBusy } from './busy';
import { sqliteCalibrationStore } from './calibrations';
import { leaveCheckpointsToPrimary, startCheckpointer, type Checkpointer } from './checkpoint';
import { convertToIncrementalVacuum, openDatabase, useServingBusyTimeout, type Db } from './client';
import { sqliteIdempotencyStore } from './idempotency';
import { sqliteKeyStore } from './keys';
import { sqliteChargeLedger } from './ledger';
import { migrateDatabase } from './migrate';
import { sqliteQuotaStore } from './quota';
import { sqliteRateStore } from './rates';
import { sqliteUsageSink } from './usage';

export type { Db } from './client';

/** What to do about a database that cannot be opened, by SQLite's (or the file system's) code. */
function hint(code: string): string {
  if (code === 'SQLITE_BUSY') return 'Another process holds a lock on it; try again when it has finished.';
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'The disk is full; free some space.';
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB')
    return 'The file is not a usable SQLite database; restore it from a backup or point DATABASE_PATH elsewhere.';
  return 'Make the file and its directory writable by this user, or set DATABASE_PATH to a writable location.';
}

/**
 * Opens the file and applies the migrations, waiting up to `waitMs` for another process's lock
 * (nothing is served yet), or throws StoreOpenError with one line: where, why, what to do.
 */
function openOrExplain(path: string, migrate: boolean, waitMs: number): Db {
  let db: Db | undefined;
  try {
    db = openDatabase(path, waitMs);
    if (migrate) migrateDatabase(db);
    useServingBusyTimeout(db);
    return db;
  } catch (error) {
    db?.$client.close();
    const code = driverCode(error);
    const why = (error as Error)?.message?.split('\n')[0] ?? String(error);
    const where = path === ':memory:' ? path : resolve(path);
    throw new StoreOpenError(`Cannot open the SQLite database ${where}: ${why} (${code}). ${hint(code)}`);
  }
}

/** A store on SQLite, with its Drizzle handle for tools and tests that read tables directly. */
export interface SqliteStore extends Store {
  readonly dialect: 'sqlite';
  readonly db: Db;
}

/** Opens the SQLite store at `path` (`:memory:` for tests). */
export function openSqliteStore(path: string, options: StoreOptions): SqliteStore {
  const { timeoutMs, calibrationCacheBytes, migrate = true, checkpoints = 'none', onEvent = () => {} } = options;
  const db = openOrExplain(path, migrate, timeoutMs);
  let checkpointer: Checkpointer = { stop() {} };
  // The server's primary, before anything is served: a file from before issue 29 learns to give space back.
  if (checkpoints === 'own' && path !== ':memory:') convertToIncrementalVacuum(db);
  if (checkpoints === 'own') checkpointer = startCheckpointer(db, path, { onError: (name) => onEvent('checkpointer_failed', { name }) });
  else if (checkpoints === 'primary') checkpointer = leaveCheckpointsToPrimary(db);
  const writes = new WriteHealth();
  const usage = sqliteUsageSink(db, timeoutMs, onEvent, writes);
  let closed = false;
  return {
    dialect: 'sqlite',
    db,
    location: path === ':memory:' ? path : resolve(path),
    keys: sqliteKeyStore(db, timeoutMs),
    quota: watchQuotaWrites(sqliteQuotaStore(db, timeoutMs), writes),
    usage,
    idempotency: sqliteIdempotencyStore(db, timeoutMs),
    rates: watchRateWrites(sqliteRateStore(db, timeoutMs), writes),
    ledger: sqliteChargeLedger(db, timeoutMs),
    // Cached on SQLite too: the query is cheap, parsing a profile of thousands of samples is not.
    calibrations: cachedCalibrationStore(sqliteCalibrationStore(db, timeoutMs), { maxBytes: calibrationCacheBytes }),
    // Writes are what fail under another process's lock (WAL readers never wait): take the lock and
    // let go, waiting HEALTH_LOCK_PROBE_MS at most. A full disk lets this pass: the writes tell.
    health: () =>
      probeHealth(writes, () =>
        retryBusy(() => {
          db.$client.exec('BEGIN IMMEDIATE');
          db.$client.exec('ROLLBACK');
        }, performance.now() + HEALTH_LOCK_PROBE_MS),
      ),
    async close() {
      if (closed) return;
      closed = true;
      await usage.close();
      checkpointer.stop();
      db.$client.close();
    },
  };
}
