/**
 * SQLite RateStore: one upsert decides each take (GCRA, see drizzle/postgres take_rates for the
 * same arithmetic). SQLite runs a statement under the write lock, so the WORKERS processes sharing
 * the file never grant more than a bucket holds. In the upsert, every SET expression reads the row
 * as it was before the statement.
 */
import type { RateState, RateStore, RateTake } from '../types';
import { retryBusy } from './busy';
import type { Db } from './client';
import { prepared } from './prepared';

/** Events granted from a bucket whose tat is `tat`: as many of `cost` as fit, all of them when forced. */
const GRANTED = `CASE WHEN $force THEN $cost
  ELSE MIN($cost, MAX(0, CAST(($now + $window - MAX(rate_buckets.tat_ms, $now)) / $step + 1e-9 AS INTEGER))) END`;

const TAKE_SQL = `
INSERT INTO rate_buckets (key_id, bucket, tat_ms, granted)
VALUES ($keyId, $bucket, $now + $first * $step, $first)
ON CONFLICT (key_id, bucket) DO UPDATE
  SET granted = ${GRANTED},
      tat_ms = MAX(rate_buckets.tat_ms, $now) + $step * (${GRANTED})
RETURNING granted, tat_ms AS tat`;

/** Events granted by a bucket's first take (the bucket is full). */
export function firstGrant(take: Pick<RateTake, 'cost' | 'limit' | 'force'>): number {
  return take.force ? take.cost : Math.min(take.cost, take.limit);
}

interface PendingTake {
  take: RateTake;
  resolve(state: RateState): void;
  reject(error: unknown): void;
}

function takeNow(db: Db, take: RateTake): RateState {
  const row = prepared<{ granted: number; tat: number }>(db, TAKE_SQL).get({
    keyId: take.keyId,
    bucket: take.bucket,
    now: take.now,
    window: take.windowMs,
    step: take.windowMs / take.limit,
    cost: take.cost,
    force: take.force ? 1 : 0,
    first: firstGrant(take),
  });
  return { granted: row?.granted ?? 0, tatMs: row?.tat ?? take.now };
}

/**
 * The RateStore of one SQLite connection. The takes queued before the next microtask checkpoint
 * share one IMMEDIATE transaction (each still its own upsert, in arrival order, under the write
 * lock): one commit for the group. A microtask, not the end of the turn as the quota's charges
 * (group-commit.ts): a request's take must not wait for a macrotask, or Bun answers bytes
 * pipelined behind the request (its own 400 for a framing error) before the request itself
 * (test/faults/hostile-http.test.ts, "a Content-Length shorter than the body"). A busy write lock
 * is retried with backoff until the deadline.
 */
export function sqliteRateStore(db: Db, timeoutMs: number): RateStore {
  const takeAll = db.$client.transaction((group: PendingTake[]) => group.map((pending) => takeNow(db, pending.take)));
  let queue: PendingTake[] = [];
  const flush = async () => {
    const group = queue;
    queue = [];
    try {
      const states = await retryBusy(() => takeAll.immediate(group), performance.now() + timeoutMs);
      group.forEach((pending, i) => pending.resolve(states[i]));
    } catch (error) {
      for (const pending of group) pending.reject(error);
    }
  };
  return {
    take: (take) =>
      new Promise((resolve, reject) => {
        queue.push({ take, resolve, reject });
        if (queue.length === 1) queueMicrotask(flush);
      }),
  };
}
