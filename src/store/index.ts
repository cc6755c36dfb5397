/**
 * Opens the configured store: SQLite (DATABASE_PATH, the embedded default, one machine) or
 * PostgreSQL (DATABASE_URL=postgres://..., several instances behind a load balancer).
 */
import type { Config } from '../config';
import type { StoreOptions } from './options';
import { openPostgresStore, withMigrationLock, type PostgresStore } from './postgres';
import { openSqliteStore } from './sqlite';
import type { Store } from './types';

export { StoreOpenError, StoreUnavailableError, STORE_RETRY_AFTER_SECONDS } from './errors';
export type { StoreEventSink, StoreOptions } from './options';
export type * from './types';

/** Opens (and, unless `migrate: false`, migrates) the store the configuration names; throws StoreOpenError with one clear line. */
export async function openStore(
  config: Pick<Config, 'databasePath' | 'databaseUrl' | 'storeTimeoutMs'> & Partial<Pick<Config, 'calibrationCacheMb'>>,
  options: Omit<StoreOptions, 'timeoutMs'> = {},
): Promise<Store> {
  const calibrationCacheBytes = config.calibrationCacheMb === undefined ? undefined : config.calibrationCacheMb * 2 ** 20;
  const full = { timeoutMs: config.storeTimeoutMs, calibrationCacheBytes, ...options };
  if (config.databaseUrl) return openPostgresStore(config.databaseUrl, full);
  return openSqliteStore(config.databasePath, full);
}

/** Runs `work` once across every instance sharing the store (PostgreSQL: under an advisory lock; SQLite: one machine, the primary alone). */
export async function onceAcrossInstances<T>(store: Store, work: () => Promise<T>): Promise<T> {
  return store.dialect === 'postgres' ? withMigrationLock((store as PostgresStore).db, work) : work();
}
