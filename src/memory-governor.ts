/**
 * Keeps a server process's RSS near what it actually holds. Measured on Bun 1.4.4 (issue 16,
 * bench/soak.ts): scoring a 0.85 MB text churns ~100-250 MB of short-lived objects, and under
 * sustained load JavaScriptCore collects them late and the allocator keeps the freed pages, so
 * RSS climbed 70 -> 780 MB over 1,000 such texts and to 1.2 GB after 8 batches of 40 MB while
 * the live heap was ~100-300 MB (one Bun.gc(true) brought them back to 97 and 311 MB). So
 * above a soft limit, and only once RSS has grown well past what the last collection left, it
 * runs one full synchronous collection (~20-100 ms here), which also returns freed pages.
 */
import type { Logger } from './http/logger';

/** How often RSS is sampled (reading it costs ~5 us). */
export const GOVERNOR_SAMPLE_MS = 200;
/** Collect again only after RSS has grown by this share of the soft limit since the last collection. */
const REGROWTH_SHARE = 0.25;

/** Options of startMemoryGovernor. */
export interface MemoryGovernorOptions {
  /** RSS above which garbage is collected (e.g. half the process's memory ceiling). */
  softLimitBytes: number;
  logger?: Logger;
  /** Reads this process's RSS (tests inject one). */
  rss?: () => number;
  /** Runs a full collection (tests inject one). */
  collect?: () => void;
  sampleMs?: number;
}

/** A running governor. */
export interface MemoryGovernor {
  /** Collections run so far. */
  readonly collections: number;
  /** Samples RSS once now (what the timer does), e.g. after a large request. */
  check(): void;
  stop(): void;
}

/** Starts sampling RSS; the timer is unref'd, so it never keeps a process alive. */
export function startMemoryGovernor(options: MemoryGovernorOptions): MemoryGovernor {
  const { softLimitBytes, logger, rss = () => process.memoryUsage.rss(), collect = () => Bun.gc(true) } = options;
  if (!(softLimitBytes > 0)) throw new RangeError(`softLimitBytes must be positive, got ${softLimitBytes}`);
  const regrowth = softLimitBytes * REGROWTH_SHARE;
  let afterLastCollection = 0;
  let collections = 0;
  const check = () => {
    const before = rss();
    if (before <= softLimitBytes || before - afterLastCollection < regrowth) return;
    const started = performance.now();
    collect();
    afterLastCollection = rss();
    collections++;
    logger?.info('memory_collected', {
      rss_before_mb: Math.round(before / 2 ** 20),
      rss_after_mb: Math.round(afterLastCollection / 2 ** 20),
      ms: Math.round(performance.now() - started),
    });
  };
  const timer = setInterval(check, options.sampleMs ?? GOVERNOR_SAMPLE_MS);
  timer.unref();
  return {
    get collections() {
      return collections;
    },
    check,
    stop: () => clearInterval(timer),
  };
}
