/** The extraction worker pool batch mode uses: one per app configuration, created on first use. */
import type { Config } from '../../config';
import { coreCount } from '../../cores';
import { DEFAULT_EXTRACT_LIMITS, type ExtractLimits } from '../../extract';
import { ExtractPool } from '../../extract/pool';
import type { RateStore } from '../../store/types';
import { ExhaustedFiles } from './exhausted';

/** Per-file extraction limits from the service configuration. */
export function extractLimitsOf(config: Config): ExtractLimits {
  return {
    ...DEFAULT_EXTRACT_LIMITS,
    maxFileBytes: config.maxFileBytes,
    maxPdfPages: config.maxPdfPages,
    maxDocxUncompressedBytes: config.maxDocxUncompressed,
    maxPdfInflatedBytes: config.maxPdfInflated,
    maxTextChars: config.maxTextChars,
  };
}

/**
 * Extraction workers of one server process: the cores but one, shared among the WORKERS processes
 * (at least one each), so N processes do not start N times cores - 1 extraction threads.
 */
export function extractWorkersPerProcess(processes: number, cores: number = coreCount()): number {
  return Math.max(1, Math.ceil((cores - 1) / processes));
}

const MB = 1024 * 1024;

const exhausted = new WeakMap<Config, ExhaustedFiles>();

/**
 * Budget-exhausting files per key for an app configuration (exhausted.ts): one per app, like the
 * pool, counted in `rates` (the store's buckets, shared by every process and instance) when given.
 */
export function exhaustedFilesFor(config: Config, rates: RateStore | null = null): ExhaustedFiles {
  let files = exhausted.get(config);
  if (!files) {
    files = new ExhaustedFiles({ rates });
    exhausted.set(config, files);
  }
  return files;
}

// Keyed by the frozen Config that createApp received: one pool per app, no process-wide global.
// Idle workers are unref'd by the pool, so an unused pool never keeps a process alive.
const pools = new WeakMap<Config, ExtractPool>();

/** The pool for an app configuration; spawns nothing until the first PDF/DOCX arrives. */
export function extractPoolFor(config: Config): ExtractPool {
  let pool = pools.get(config);
  if (!pool) {
    pool = new ExtractPool({
      limits: extractLimitsOf(config),
      size: extractWorkersPerProcess(config.workers),
      taskTimeoutMs: config.extractTimeoutMs,
      heapLimitBytes: config.extractHeapMb * MB,
      rssLimitBytes: config.memoryLimitMb * MB,
    });
    pools.set(config, pool);
  }
  return pool;
}
