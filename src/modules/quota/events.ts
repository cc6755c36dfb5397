/** usage_events: one metadata row per authenticated request (never the text). */
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import type { NewUsageEvent } from '../../db/schema';

const INSERT_SQL = `INSERT INTO usage_events (key_id, mode, words, score, status, error_code, duration_ms, created_at)
  VALUES ($keyId, $mode, $words, $score, $status, $errorCode, $durationMs, $createdAt)`;

/**
 * Most events held before they are written, whatever the load. Measured with bench/ on 2 cores:
 * one commit per event costs ~35 us (3 pages to the WAL: table, index, sqlite_sequence) and makes
 * a WAL checkpoint (with fsync) every ~200 requests on the event loop; in a batch ~5 us an event.
 */
export const MAX_PENDING_EVENTS = 256;

/** Inserts one usage event (key id, mode, words, score, status, error code, duration, time). */
export function recordUsage(db: Db, event: NewUsageEvent): void {
  prepared(db, INSERT_SQL).run({
    keyId: event.keyId,
    mode: event.mode,
    words: event.words ?? 0,
    score: event.score ?? null,
    status: event.status,
    errorCode: event.errorCode ?? null,
    durationMs: event.durationMs,
    createdAt: event.createdAt,
  });
}

/** Per-database write-behind state: requests still open, events not yet written. */
interface UsageWriter {
  open: number;
  pending: NewUsageEvent[];
  scheduled: boolean;
  onError: (error: unknown, lost: number) => void;
}

const writers = new WeakMap<Db, UsageWriter>();

function writerOf(db: Db): UsageWriter {
  let writer = writers.get(db);
  if (!writer) {
    writer = { open: 0, pending: [], scheduled: false, onError: () => {} };
    writers.set(db, writer);
  }
  return writer;
}

/** Writes every pending event of `db` in one transaction (a failure drops them and is reported). */
export function flushUsage(db: Db): void {
  const writer = writers.get(db);
  if (!writer || writer.pending.length === 0) return;
  const events = writer.pending;
  writer.pending = [];
  try {
    if (events.length === 1) recordUsage(db, events[0]);
    else db.$client.transaction(() => events.forEach((event) => recordUsage(db, event)))();
  } catch (error) {
    writer.onError(error, events.length);
  }
}

/** Counts an authenticated request as open; its usage event is queued with queueUsage when it ends. */
export function usageRequestStarted(db: Db): void {
  writerOf(db).open++;
}

/**
 * Ends an open request and records its event. Alone (no other request open) the event is written
 * before this returns, so a finished request is always on disk once nothing else is running;
 * under concurrency events share one transaction on the next event-loop turn (at most
 * MAX_PENDING_EVENTS wait). Only the metering log is deferred: quota charges stay synchronous.
 */
export function queueUsage(db: Db, event: NewUsageEvent, onError: (error: unknown, lost: number) => void): void {
  const writer = writerOf(db);
  writer.open = Math.max(0, writer.open - 1);
  writer.onError = onError;
  writer.pending.push(event);
  if (writer.open === 0 || writer.pending.length >= MAX_PENDING_EVENTS) return flushUsage(db);
  if (writer.scheduled) return;
  writer.scheduled = true;
  setImmediate(() => {
    writer.scheduled = false;
    flushUsage(db);
  });
}
