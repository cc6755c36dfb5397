/**
 * usage_events: one metadata row per authenticated request (never the text), written behind.
 *
 * An event is analytics, not billing (the quota counter is charged synchronously, in its own
 * statement). Inserting each event in its own commit cost ~39 us of a ~450 us detection (three
 * pages to the WAL: table, index, sqlite_sequence); a transaction of 100 events costs ~2.6 us per
 * event. So events are buffered per database and written together FLUSH_DELAY_MS after the first
 * one, at FLUSH_MAX_EVENTS, before any in-process read of the table, and when the database closes.
 * What a crash (SIGKILL, power loss) can lose is the last FLUSH_DELAY_MS of events, never words.
 */
import { beforeClose, type Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import type { NewUsageEvent } from '../../db/schema';

/** Longest an event waits in memory before it is written. */
export const FLUSH_DELAY_MS = 50;
/** A buffer this full is written at once. */
export const FLUSH_MAX_EVENTS = 256;

const INSERT_SQL = `INSERT INTO usage_events (key_id, mode, words, score, status, error_code, duration_ms, created_at)
  VALUES ($keyId, $mode, $words, $score, $status, $errorCode, $durationMs, $createdAt)`;

interface Pending {
  events: NewUsageEvent[];
  timer: ReturnType<typeof setTimeout> | null;
}

const pendingByDb = new Map<Db, Pending>();
/** Databases whose close already flushes their queue. */
const flushedOnClose = new WeakSet<Db>();

/** Queues one usage event (key id, mode, words, score, status, error code, duration, time). */
export function recordUsage(db: Db, event: NewUsageEvent): void {
  let pending = pendingByDb.get(db);
  if (!pending) {
    pending = { events: [], timer: null };
    pendingByDb.set(db, pending);
    if (!flushedOnClose.has(db)) {
      flushedOnClose.add(db);
      beforeClose(db, () => flushUsage(db));
    }
  }
  pending.events.push(event);
  if (pending.events.length >= FLUSH_MAX_EVENTS) {
    flushUsage(db);
  } else if (!pending.timer) {
    pending.timer = setTimeout(() => flushInBackground(db), FLUSH_DELAY_MS);
    // A pending write never keeps a finished process alive: exit and close flush it (below).
    pending.timer.unref();
  }
}

/** Writes the queued events of `db` in one transaction. Called before reads of usage_events and on close. */
export function flushUsage(db: Db): void {
  const pending = pendingByDb.get(db);
  if (!pending) return;
  pendingByDb.delete(db);
  if (pending.timer) clearTimeout(pending.timer);
  if (pending.events.length === 0) return;
  const insert = prepared(db, INSERT_SQL);
  db.$client.transaction((events: NewUsageEvent[]) => {
    for (const event of events) {
      insert.run({
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
  })(pending.events);
}

/** A timer's flush: a failure must not crash the server; it is reported as metadata only. */
function flushInBackground(db: Db): void {
  try {
    flushUsage(db);
  } catch (error) {
    process.stderr.write(`${JSON.stringify({ ts: new Date().toISOString(), level: 'error', event: 'usage_flush_failed', name: (error as Error)?.name ?? 'Error' })}\n`);
  }
}

/** Flushes every database's queue; for process exit, where timers no longer run. */
export function flushAllUsage(): void {
  for (const db of [...pendingByDb.keys()]) {
    try {
      flushUsage(db);
    } catch {
      // The database may already be closed; nothing else can be done at exit.
    }
  }
}

process.on('exit', flushAllUsage);
