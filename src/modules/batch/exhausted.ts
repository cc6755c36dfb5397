/**
 * The cost of files that exhaust an extraction budget (issue 23). A file that fails is not charged,
 * so a key could send files that each hold an extraction worker until a limit stops them, again and
 * again. Instead: once EXHAUSTED_FILES_PER_KEY of a key's files have hit a limit inside the worker
 * (extract_limit, except the page count that is read before any parsing, or extract_timeout) in
 * the last EXHAUSTED_WINDOW_MS, its further MD/PDF/DOCX files are refused when a worker would take
 * them, with extract_throttled (TXT is read inline and never refused). Counted per server process.
 */
import { ExtractError } from '../../extract';
import type { TaskGate } from '../../extract/pool';

/** Files of one key that may exhaust a budget within the window before its files are refused. */
export const EXHAUSTED_FILES_PER_KEY = 10;
/** The window, in ms. */
export const EXHAUSTED_WINDOW_MS = 60_000;
/** Above this many keys tracked, every key's expired entries are dropped at the next record. */
const SWEEP_AT_KEYS = 1_000;

/** True for an error that means the file used a worker until one of its budgets stopped it. */
export function exhaustsBudget(error: unknown): boolean {
  if (!(error instanceof ExtractError)) return false;
  if (error.code === 'extract_timeout') return true;
  return error.code === 'extract_limit' && error.params.kind !== 'pdf_pages';
}

/** Budget-exhausting files per key in a sliding window; see the module comment. */
export class ExhaustedFiles {
  private readonly times = new Map<string, number[]>();

  constructor(
    readonly limit = EXHAUSTED_FILES_PER_KEY,
    readonly windowMs = EXHAUSTED_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Files of `key` that exhausted a budget within the window. */
  count(key: string): number {
    return this.recent(key, this.now()).length;
  }

  /** Counts one budget-exhausting file of `key`. */
  record(key: string): void {
    const now = this.now();
    if (this.times.size >= SWEEP_AT_KEYS) for (const known of [...this.times.keys()]) this.recent(known, now);
    const times = this.recent(key, now);
    times.push(now);
    // Only the last `limit` matter: older ones leave the window first.
    if (times.length > this.limit) times.splice(0, times.length - this.limit);
    this.times.set(key, times);
  }

  /** The pool gate of one key's files: refuses them while the key is over the limit, counts how they end. */
  gate(key: string): TaskGate {
    return {
      admit: () => {
        if (this.count(key) < this.limit) return undefined;
        const seconds = Math.round(this.windowMs / 1000);
        return new ExtractError('extract_throttled', `${this.limit} files of this key hit an extraction limit in the last ${seconds} s`, {
          limit: this.limit,
          seconds,
        });
      },
      ended: (error) => {
        if (exhaustsBudget(error)) this.record(key);
      },
    };
  }

  private recent(key: string, now: number): number[] {
    const times = this.times.get(key);
    if (!times) return [];
    const fresh = times.filter((t) => now - t < this.windowMs);
    if (fresh.length === 0) this.times.delete(key);
    else if (fresh.length !== times.length) this.times.set(key, fresh);
    return fresh;
  }
}
