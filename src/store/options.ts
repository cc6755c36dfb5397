/** Options every store implementation takes. */

/** Where a store reports trouble it handled itself (a failed background write, a dropped event): metadata only. */
export type StoreEventSink = (event: string, fields: Record<string, string | number>) => void;

/** How a process opens its store. */
export interface StoreOptions {
  /** Longest one operation may wait for a busy or unreachable store before StoreUnavailableError. */
  timeoutMs: number;
  /** Apply pending migrations (the primary and the CLI do; WORKERS processes and extra instances wait for it). Default true. */
  migrate?: boolean;
  /**
   * SQLite WAL checkpoints: `own` runs them on a worker thread (the primary), `primary` leaves
   * them to the primary (a WORKERS process), `none` keeps SQLite's default (CLI, tests).
   */
  checkpoints?: 'own' | 'primary' | 'none';
  /** Bytes of parsed calibration profiles one process keeps (calibration-cache.ts; CALIBRATION_CACHE_MB). Default CALIBRATION_CACHE_DEFAULT_BYTES. */
  calibrationCacheBytes?: number;
  onEvent?: StoreEventSink;
}
