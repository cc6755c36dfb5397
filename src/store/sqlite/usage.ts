/**
 * SQLite UsageSink: usage_events rows written behind (usage-buffer.ts). Inserting each event in
 * its own commit cost ~39 us of a ~450 us detection (three pages to the WAL: table, index,
 * sqlite_sequence); a transaction of 100 events costs ~2.6 us per event.
 */
import type { UsageEvent, UsageSink } from '../types';
import type { StoreEventSink } from '../options';
import { bufferedSink, UsageBuffer } from '../usage-buffer';
import type { WriteHealth } from '../write-health';
import { retryBusy } from './busy';
import type { Db } from './client';
import { prepared } from './prepared';

const INSERT_SQL = `INSERT INTO usage_events (key_id, mode, words, score, status, error_code, duration_ms, created_at)
  VALUES ($keyId, $mode, $words, $score, $status, $errorCode, $durationMs, $createdAt)`;
const COUNT_SQL = `SELECT (SELECT count(*) FROM usage_events WHERE key_id = $keyId)
  + (SELECT COALESCE(SUM(requests), 0) FROM usage_totals WHERE key_id = $keyId) AS n`;
/**
 * One chunk of the retention rule: the oldest COMPACT_CHUNK events created before $before, folded
 * into usage_totals, then deleted. Both statements pick the same rows: they run in one transaction
 * under SQLite's write lock. Rows are scanned in id order, which is their creation order.
 */
const CHUNK_IDS = 'SELECT id FROM usage_events WHERE created_at < $before ORDER BY id LIMIT $chunk';
const FOLD_SQL = `INSERT INTO usage_totals (key_id, period, requests, words)
  SELECT key_id, strftime('%Y-%m', created_at / 1000, 'unixepoch'), count(*), SUM(words)
  FROM usage_events WHERE id IN (${CHUNK_IDS}) GROUP BY 1, 2
  ON CONFLICT (key_id, period) DO UPDATE
    SET requests = usage_totals.requests + excluded.requests, words = usage_totals.words + excluded.words`;
const DROP_SQL = `DELETE FROM usage_events WHERE id IN (${CHUNK_IDS})`;
/**
 * Events per transaction. bun:sqlite is synchronous: a chunk blocks the process's event loop and
 * holds the write lock while it runs (16,098 events folded in 39-89 ms, the longest event-loop
 * pause 12-41 ms, on 2 loaded cores).
 */
export const COMPACT_CHUNK = 1_000;

/** Buffers of open databases, written synchronously at process exit (timers no longer run then). */
const open = new Set<UsageBuffer>();
process.on('exit', () => {
  for (const buffer of open) buffer.flushSync();
});

/** A UsageSink on `db` with its write-behind buffer, and what closing the database must do first. */
export function sqliteUsageSink(
  db: Db,
  timeoutMs: number,
  report: StoreEventSink,
  writes?: WriteHealth,
): UsageSink & { close(): Promise<void> } {
  const insert = prepared(db, INSERT_SQL);
  const insertAll = db.$client.transaction((events: UsageEvent[]) => {
    for (const e of events) {
      insert.run({
        keyId: e.keyId,
        mode: e.mode,
        words: e.words,
        score: e.score,
        status: e.status,
        errorCode: e.errorCode,
        durationMs: e.durationMs,
        createdAt: e.createdAt,
      });
    }
  });
  const buffer = new UsageBuffer((events) => {
    try {
      insertAll(events);
      writes?.ok();
    } catch (error) {
      writes?.failed(error);
      throw error;
    }
  }, report);
  open.add(buffer);
  const count = (keyId: number) =>
    retryBusy(() => prepared<{ n: number }>(db, COUNT_SQL).get({ keyId })?.n ?? 0, performance.now() + timeoutMs);
  const compactChunk = db.$client.transaction((before: number) => {
    prepared(db, FOLD_SQL).run({ before, chunk: COMPACT_CHUNK });
    return prepared(db, DROP_SQL).run({ before, chunk: COMPACT_CHUNK }).changes;
  });
  return {
    ...bufferedSink(buffer, count),
    async compact(before) {
      let total = 0;
      for (;;) {
        const done = await retryBusy(() => compactChunk.immediate(before), performance.now() + timeoutMs);
        total += done;
        if (done < COMPACT_CHUNK) return total;
        // Between chunks, the event loop (and other writers) get their turn.
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    /** Writes what is queued, retrying a busy lock up to the deadline (a shutdown keeps its events). */
    async close() {
      await buffer.drain(timeoutMs);
      open.delete(buffer);
    },
  };
}
