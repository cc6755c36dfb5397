/**
 * The retention rule of usage events (issue 33): one row per request grew the database ~58 bytes a
 * request, forever. Events older than USAGE_RETENTION_DAYS are folded into per-key monthly totals
 * (what `keys usage` counts; billing and GET /v1/usage read monthly_usage, never the events) and
 * deleted: at start and every hour. Every process may run it, on one SQLite file or many instances
 * of one PostgreSQL: each event is folded once (store UsageSink.compact).
 */
import type { UsageSink } from '../../store/types';

/** How often the rule runs after the first pass at start. */
export const RETENTION_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Options of startUsageRetention. */
export interface UsageRetentionOptions {
  usage: Pick<UsageSink, 'compact'>;
  /** USAGE_RETENTION_DAYS; 0 turns the rule off. */
  days: number;
  /** Told how many events each pass folded (when any), or that a pass failed (it is tried again at the next). */
  onEvent(event: 'usage_compacted' | 'usage_compact_failed', fields: Record<string, string | number>): void;
  now?: () => number;
}

/** One pass: folds and deletes the events past the retention period; resolves to how many. */
export async function compactUsage({ usage, days, onEvent, now = Date.now }: UsageRetentionOptions): Promise<number> {
  if (days <= 0) return 0;
  try {
    const folded = await usage.compact(now() - days * DAY_MS);
    if (folded > 0) onEvent('usage_compacted', { events: folded, days });
    return folded;
  } catch (error) {
    onEvent('usage_compact_failed', { name: (error as Error)?.name ?? 'Error' });
    return 0;
  }
}

/** Runs compactUsage now and every RETENTION_EVERY_MS; returns the function that stops it. */
export function startUsageRetention(options: UsageRetentionOptions): () => void {
  if (options.days <= 0) return () => {};
  let running = false;
  const pass = () => {
    if (running) return;
    running = true;
    void compactUsage(options).finally(() => {
      running = false;
    });
  };
  pass();
  const timer = setInterval(pass, RETENTION_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
