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
const COUNT_SQL = 'SELECT count(*) AS n FROM usage_events WHERE key_id = $keyId';

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
  return {
    ...bufferedSink(buffer, count),
    /** Writes what is queued, retrying a busy lock up to the deadline (a shutdown keeps its events). */
    async close() {
      await buffer.drain(timeoutMs);
      open.delete(buffer);
    },
  };
}
