/** Structured JSON-lines logger. Callers pass metadata only: never submitted text. */
import { writeSync } from 'node:fs';

/** A log record: flat metadata (ids, counts, statuses, durations). */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** What the app logs through; inject a capturing one in tests. */
export interface Logger {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

type Level = 'info' | 'warn' | 'error';

/** Buffered lines are written once they reach this size, or at the end of the event-loop turn. */
const FLUSH_BYTES = 64 * 1024;

/**
 * A stdout writer that batches lines: one write per line (a syscall each, to a pipe or file) cost
 * ~3 us, batched ~1 us. Lines queued in one event-loop turn go out in one write at its end
 * (setImmediate); at process exit, whatever is queued is written synchronously.
 */
export function bufferedStdout(): (line: string) => void {
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const out = pending;
    pending = '';
    process.stdout.write(out);
  };
  process.on('exit', () => {
    if (pending !== '') writeSync(1, pending);
    pending = '';
  });
  return (line) => {
    pending += line;
    if (pending.length >= FLUSH_BYTES) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
}

/** A logger writing one JSON object per line through `write` (batched stdout by default); `pid` tells WORKERS processes apart. */
export function createJsonLogger(write: (line: string) => void = bufferedStdout()): Logger {
  const emit =
    (level: Level) =>
    (event: string, fields: LogFields = {}) =>
      write(`${JSON.stringify({ ts: new Date().toISOString(), level, event, pid: process.pid, ...fields })}\n`);
  return { info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/** A logger that drops everything. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
