/**
 * PostgreSQL UsageSink: usage_events rows written behind (usage-buffer.ts). A batch is one INSERT
 * of unnest()ed column arrays: the same prepared statement whatever the batch size (a VALUES list
 * would be a new statement to parse and plan for each size), and all of the batch or none of it.
 */
import type { StoreEventSink } from '../options';
import { withDeadline } from '../deadline';
import type { UsageEvent, UsageSink } from '../types';
import { bufferedSink, UsageBuffer } from '../usage-buffer';
import type { WriteHealth } from '../write-health';
import type { PgDb } from './client';

const INSERT_SQL = `INSERT INTO usage_events (key_id, mode, words, score, status, error_code, duration_ms, created_at)
  SELECT * FROM unnest($1::integer[], $2::text[], $3::integer[], $4::integer[], $5::integer[], $6::text[], $7::float8[], $8::bigint[])`;

/**
 * One chunk of the retention rule in one statement: the oldest $2 events created before $1 are
 * deleted and the deleted rows folded into usage_totals. SKIP LOCKED gives instances compacting at
 * once disjoint rows, and a row deleted once is folded once.
 */
const COMPACT_SQL = `WITH gone AS (
  DELETE FROM usage_events WHERE id IN (
    SELECT id FROM usage_events WHERE created_at < $1::bigint ORDER BY id LIMIT $2::integer FOR UPDATE SKIP LOCKED)
  RETURNING key_id, words, created_at
), folded AS (
  INSERT INTO usage_totals AS t (key_id, period, requests, words)
  SELECT key_id, to_char(to_timestamp(created_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM'), count(*), SUM(words)
  FROM gone GROUP BY 1, 2
  ON CONFLICT (key_id, period) DO UPDATE SET requests = t.requests + excluded.requests, words = t.words + excluded.words
  RETURNING 1
)
SELECT count(*)::integer AS n FROM gone`;
/** Events per statement: short row locks, so detections are not held up. */
const COMPACT_CHUNK = 5_000;

/** A UsageSink on `db` with its write-behind buffer, and what closing the pool must do first. */
export function postgresUsageSink(
  db: PgDb,
  timeoutMs: number,
  report: StoreEventSink,
  writes?: WriteHealth,
): UsageSink & { close(): Promise<void> } {
  const sql = db.$client;
  const write = async (events: UsageEvent[]) => {
    const column = <T>(pick: (event: UsageEvent) => T) => events.map(pick);
    const columns = [
      column((e) => e.keyId),
      column((e) => e.mode),
      column((e) => e.words),
      column((e) => e.score),
      column((e) => e.status),
      column((e) => e.errorCode),
      column((e) => e.durationMs),
      column((e) => e.createdAt),
    ];
    await withDeadline(sql.unsafe(INSERT_SQL, columns) as Promise<unknown>, timeoutMs);
  };
  const buffer = new UsageBuffer(writes ? (events) => writes.watch(() => write(events)) : write, report);
  const count = async (keyId: number) => {
    const rows = await withDeadline(
      sql`SELECT ((SELECT count(*) FROM usage_events WHERE key_id = ${keyId})
        + (SELECT COALESCE(SUM(requests), 0) FROM usage_totals WHERE key_id = ${keyId}))::bigint AS n` as Promise<Array<{ n: number }>>,
      timeoutMs,
    );
    return Number(rows[0]?.n ?? 0);
  };
  return {
    ...bufferedSink(buffer, count),
    async compact(before) {
      let total = 0;
      for (;;) {
        const rows = await withDeadline(sql.unsafe(COMPACT_SQL, [before, COMPACT_CHUNK]) as Promise<Array<{ n: number }>>, timeoutMs);
        const done = Number(rows[0]?.n ?? 0);
        total += done;
        if (done < COMPACT_CHUNK) return total;
      }
    },
    /** Writes what is queued, retrying up to the deadline (a shutdown keeps its events). */
    close: () => buffer.drain(timeoutMs),
  };
}
