/** PostgreSQL UsageSink: usage_events rows written behind (usage-buffer.ts), one multi-row INSERT per batch. */
import type { StoreEventSink } from '../options';
import { withDeadline } from '../deadline';
import type { UsageEvent, UsageSink } from '../types';
import { bufferedSink, UsageBuffer } from '../usage-buffer';
import type { PgDb } from './client';

/** Rows per INSERT: 8 columns each, well under PostgreSQL's 65,535 parameters. */
const ROWS_PER_INSERT = 1000;

/** A UsageSink on `db` with its write-behind buffer, and what closing the pool must do first. */
export function postgresUsageSink(db: PgDb, timeoutMs: number, report: StoreEventSink): UsageSink & { close(): Promise<void> } {
  const sql = db.$client;
  const write = async (events: UsageEvent[]) => {
    for (let i = 0; i < events.length; i += ROWS_PER_INSERT) {
      const rows = events.slice(i, i + ROWS_PER_INSERT).map((e) => ({
        key_id: e.keyId,
        mode: e.mode,
        words: e.words,
        score: e.score,
        status: e.status,
        error_code: e.errorCode,
        duration_ms: e.durationMs,
        created_at: e.createdAt,
      }));
      await withDeadline(sql`INSERT INTO usage_events ${sql(rows)}` as Promise<unknown>, timeoutMs);
    }
  };
  const buffer = new UsageBuffer(write, report);
  const count = async (keyId: number) => {
    const rows = await withDeadline(sql`SELECT count(*)::integer AS n FROM usage_events WHERE key_id = ${keyId}` as Promise<Array<{ n: number }>>, timeoutMs);
    return Number(rows[0]?.n ?? 0);
  };
  return {
    ...bufferedSink(buffer, count),
    /** Writes what is queued, retrying up to the deadline (a shutdown keeps its events). */
    close: () => buffer.drain(timeoutMs),
  };
}
