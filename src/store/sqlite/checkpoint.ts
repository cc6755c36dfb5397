/**
 * WAL checkpoints off the event loop. By default SQLite checkpoints inside whichever commit
 * pushes the WAL past 1000 pages; with synchronous=NORMAL that commit copies the pages back and
 * fsyncs, on a request's path (every ~245 detections). The server turns autocheckpoint off on its
 * connection, and a worker thread with its own connection runs PASSIVE checkpoints (which never
 * block writers) every CHECKPOINT_INTERVAL_MS. Measured (README "Performance"): in process, a 5-8 ms
 * stall every ~245 detections disappears (p99 1.6 -> 0.9 ms); over HTTP +10% req/s.
 *
 * A PASSIVE checkpoint copies frames back but never restarts the WAL: the file only starts over
 * when a writer finds it fully copied and no reader on it, which sustained load never allows
 * (issue 29: 587 MB of WAL after 10 s of keyed detections, 1.63 GB after 30 s). So once the WAL
 * passes WAL_TRUNCATE_BYTES the worker runs a TRUNCATE checkpoint, which waits (at most
 * TRUNCATE_WAIT_MS, holding new writers back meanwhile) for the readers of the old frames to
 * finish, then empties the file. The worker also hands free pages back to the file system
 * (incremental vacuum, VACUUM_PAGES_PER_PASS a pass), so expired idempotency records give their
 * space back.
 */
import type { Db } from './client';

/** How often the worker checkpoints. */
export const CHECKPOINT_INTERVAL_MS = 250;
/** SQLite's default, restored when the worker stops or fails so the WAL can never grow unbounded. */
export const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
/**
 * WAL size past which the worker empties the file (TRUNCATE). 8 MiB is ~200 keyed detections'
 * frames, 1/4 s at the highest rate measured here (~1,800 keyed detections/s on 2 cores).
 */
export const WAL_TRUNCATE_BYTES = 8 * 1024 * 1024;
/**
 * Longest a TRUNCATE checkpoint waits for readers, in ms; writers of other connections wait
 * meanwhile (asynchronously, store/sqlite/busy.ts). Readers here are single statements of
 * microseconds; a busy result is tried again on the next pass.
 */
export const TRUNCATE_WAIT_MS = 100;
/** Free pages handed back per pass (8 MiB of 4 KiB pages): each pass holds the write lock a few ms. */
export const VACUUM_PAGES_PER_PASS = 2048;
/** Free pages tolerated before vacuuming: the next inserts reuse them anyway. */
const VACUUM_FREE_PAGES = 256;

// Inline source behind a Blob URL: no extra `bun build --compile` entrypoint to remember.
const WORKER_SOURCE = `
const { Database } = require('bun:sqlite');
const { statSync } = require('node:fs');
let db;
let timer;
const walSize = (path) => {
  try {
    return statSync(path + '-wal').size;
  } catch {
    return 0;
  }
};
self.onmessage = ({ data }) => {
  if (data.stop) {
    clearInterval(timer);
    db?.close();
    self.close();
    return;
  }
  try {
    db = new Database(data.path);
    db.exec('PRAGMA busy_timeout = ' + data.truncateWaitMs);
  } catch (error) {
    postMessage({ error: (error && error.name) || 'Error' });
    return;
  }
  const passive = db.query('PRAGMA wal_checkpoint(PASSIVE)');
  const truncate = db.query('PRAGMA wal_checkpoint(TRUNCATE)');
  const freePages = db.query('PRAGMA freelist_count');
  const autoVacuum = db.query('PRAGMA auto_vacuum').get().auto_vacuum;
  timer = setInterval(() => {
    try {
      const row = (walSize(data.path) > data.truncateBytes ? truncate : passive).get();
      if (row && row.checkpointed > 0) postMessage({ checkpointed: row.checkpointed, busy: row.busy });
      // 2 = INCREMENTAL: free pages can be handed back without rewriting the file.
      if (autoVacuum === 2 && freePages.get().freelist_count > data.vacuumFreePages) {
        db.exec('PRAGMA incremental_vacuum(' + data.vacuumPages + ')');
      }
    } catch (error) {
      // Busy past the wait: another process holds the write lock; the next pass tries again.
      if (error && error.code === 'SQLITE_BUSY') return;
      clearInterval(timer);
      postMessage({ error: (error && error.name) || 'Error' });
    }
  }, data.intervalMs);
};
`;

/** A running background checkpointer. */
export interface Checkpointer {
  /** Stops the worker, checkpoints once from this connection and restores autocheckpoint. */
  stop(): void;
}

/** Options of startCheckpointer. */
export interface CheckpointerOptions {
  intervalMs?: number;
  /** Called once if the worker fails; autocheckpoint is restored first. */
  onError?: (name: string) => void;
  /** Called with the number of WAL frames each worker checkpoint copied back (tests, metrics). */
  onCheckpoint?: (frames: number) => void;
}

/** Moves the WAL checkpoints of `db`, open on the file `path`, to a worker thread; a no-op for `:memory:`. */
export function startCheckpointer(db: Db, path: string, options: CheckpointerOptions = {}): Checkpointer {
  const { intervalMs = CHECKPOINT_INTERVAL_MS, onError = () => {}, onCheckpoint = () => {} } = options;
  if (path === ':memory:' || path === '') return { stop() {} };
  const worker = new Worker(URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'application/javascript' })));
  let stopped = false;
  const restore = () => {
    stopped = true;
    try {
      db.$client.exec(`PRAGMA wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    } catch {
      // The connection is already closed: it has nothing left to checkpoint.
    }
  };
  const fail = (name: string) => {
    if (stopped) return;
    restore();
    worker.terminate();
    onError(name);
  };
  worker.addEventListener('message', (event: MessageEvent<{ error?: string; checkpointed?: number }>) => {
    if (event.data.error) fail(event.data.error);
    else if (event.data.checkpointed) onCheckpoint(event.data.checkpointed);
  });
  worker.addEventListener('error', (event) => fail((event as ErrorEvent).error?.name ?? 'WorkerError'));
  db.$client.exec('PRAGMA wal_autocheckpoint = 0');
  worker.postMessage({
    path,
    intervalMs,
    truncateBytes: WAL_TRUNCATE_BYTES,
    truncateWaitMs: TRUNCATE_WAIT_MS,
    vacuumPages: VACUUM_PAGES_PER_PASS,
    vacuumFreePages: VACUUM_FREE_PAGES,
  });
  // Never the reason a process stays alive (Bun's Worker has Node's unref(); the DOM typings do not).
  (worker as unknown as { unref(): void }).unref();
  return {
    stop() {
      if (stopped) return;
      restore();
      worker.postMessage({ stop: true });
      try {
        db.$client.exec('PRAGMA wal_checkpoint(PASSIVE)');
      } catch {
        // Closed or busy: the next open (or the worker's last pass) checkpoints instead.
      }
    },
  };
}

/**
 * For a worker process (WORKERS > 1): its commits never checkpoint; the primary's checkpointer
 * copies the whole WAL back (a checkpoint works on the file, whoever wrote the frames).
 */
export function leaveCheckpointsToPrimary(db: Db): Checkpointer {
  db.$client.exec('PRAGMA wal_autocheckpoint = 0');
  return { stop() {} };
}
