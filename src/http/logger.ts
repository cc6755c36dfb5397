/** Structured JSON-lines logger. Callers pass metadata only: never submitted text. */

/** A log record: flat metadata (ids, counts, statuses, durations). */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** What the app logs through; inject a capturing one in tests. */
export interface Logger {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

type Level = 'info' | 'warn' | 'error';

/** A logger writing one JSON object per line through `write` (stdout by default). */
export function createJsonLogger(write: (line: string) => void = (line) => process.stdout.write(line)): Logger {
  const emit =
    (level: Level) =>
    (event: string, fields: LogFields = {}) =>
      write(`${JSON.stringify({ ts: new Date().toISOString(), level, event, ...fields })}\n`);
  return { info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/** A logger that drops everything. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
