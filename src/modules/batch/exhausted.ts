/**
 * The cost of files that exhaust an extraction budget (issue 23). A file that fails is not charged,
 * so a key could send files that each hold an extraction worker until a limit stops them, again and
 * again. Instead: each of a key's files that hits a limit inside the worker (extract_limit, except
 * the page count that is read before any parsing, or extract_timeout) takes one event from the
 * key's `extract` rate bucket (src/modules/rate: GCRA in the store), which holds
 * EXHAUSTED_FILES_PER_KEY of them and gives one back every EXHAUSTED_WINDOW_MS. While it is empty,
 * the key's further MD/PDF/DOCX files are refused when a worker would take them, with
 * extract_throttled (TXT is read inline and never refused). So the 11th such file within a minute
 * is refused, as before; after that the key gets one more a minute (a file that runs to the 30 s
 * timeout then costs at most half a worker, where 10 a minute cost 5).
 *
 * Issue 29 (5): the bucket lives in the store, so it holds for the key across the WORKERS processes
 * sharing a SQLite file and across instances on one PostgreSQL (it was counted per process: up to
 * 10 x processes). The pool's gate is asked synchronously when a worker is free, so each process
 * decides on its mirror of the bucket: read from the store when a batch starts and after every
 * event it records (the store answers with the bucket as every process left it), and advanced
 * locally at once. A process can thus admit a file another one has just exhausted the bucket for
 * until its next read: at most one file per extraction worker per process beyond the limit.
 */
import { ExtractError } from '../../extract';
import type { TaskGate } from '../../extract/pool';
import type { RateStore } from '../../store/types';
import { available, type RatePolicy, stepMs } from '../rate';

/** Files of one key that may exhaust a budget at once before its files are refused. */
export const EXHAUSTED_FILES_PER_KEY = 10;
/** One more such file is allowed every EXHAUSTED_WINDOW_MS (ms): the first refusal comes for the 11th within it. */
export const EXHAUSTED_WINDOW_MS = 60_000;

/** The bucket: EXHAUSTED_FILES_PER_KEY events, one back every EXHAUSTED_WINDOW_MS. */
export function exhaustedPolicy(limit = EXHAUSTED_FILES_PER_KEY, windowMs = EXHAUSTED_WINDOW_MS): RatePolicy {
  return { name: 'extract', limit, windowMs: limit * windowMs };
}

/** True for an error that means the file used a worker until one of its budgets stopped it. */
export function exhaustsBudget(error: unknown): boolean {
  if (!(error instanceof ExtractError)) return false;
  if (error.code === 'extract_timeout') return true;
  return error.code === 'extract_limit' && error.params.kind !== 'pdf_pages';
}

/** Options of ExhaustedFiles. */
export interface ExhaustedFilesOptions {
  /** The store's rate buckets; null keeps the buckets in this process only (tests, tools). */
  rates?: RateStore | null;
  limit?: number;
  windowMs?: number;
  now?: () => number;
  /** Where a failed store write is reported (the local mirror still counts the file). */
  onError?: (error: unknown) => void;
}

/** Budget-exhausting files per key, in the store's rate buckets; see the module comment. */
export class ExhaustedFiles {
  readonly limit: number;
  readonly windowMs: number;
  private readonly policy: RatePolicy;
  private readonly rates: RateStore | null;
  private readonly now: () => number;
  private readonly onError: (error: unknown) => void;
  /** The mirror: each key's bucket (its theoretical arrival time, epoch ms) as this process last saw it. */
  private readonly tat = new Map<string, number>();

  constructor({
    rates = null,
    limit = EXHAUSTED_FILES_PER_KEY,
    windowMs = EXHAUSTED_WINDOW_MS,
    now = Date.now,
    onError = () => {},
  }: ExhaustedFilesOptions = {}) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.policy = exhaustedPolicy(limit, windowMs);
    this.rates = rates;
    this.now = now;
    this.onError = onError;
  }

  /** Files of `key` counted against it now (0 .. limit) on this process's mirror. */
  count(key: string): number {
    return this.limit - available(this.policy, this.tat.get(key) ?? 0, this.now());
  }

  /** Reads the key's bucket from the store into the mirror (a take of nothing). */
  async sync(key: string, onError = this.onError): Promise<void> {
    await this.take(key, 0, onError);
  }

  /** Counts one budget-exhausting file of `key`: in the mirror at once, then in the store. */
  record(key: string, onError = this.onError): Promise<void> {
    const now = this.now();
    this.advance(key, Math.max(this.tat.get(key) ?? 0, now) + stepMs(this.policy));
    return this.take(key, 1, onError);
  }

  /**
   * The pool gate of one key's files, after reading the key's bucket from the store. A store that
   * fails is reported to `onError` (the batch's log) and the gate goes on with this process's count.
   */
  async gate(key: string, onError = this.onError): Promise<TaskGate> {
    await this.sync(key, onError);
    return {
      admit: () => {
        if (available(this.policy, this.tat.get(key) ?? 0, this.now()) >= 1) return undefined;
        const seconds = Math.round(this.windowMs / 1000);
        return new ExtractError('extract_throttled', `${this.limit} files of this key hit an extraction limit in the last ${seconds} s`, {
          limit: this.limit,
          seconds,
        });
      },
      ended: (error) => {
        if (exhaustsBudget(error)) void this.record(key, onError);
      },
    };
  }

  private async take(key: string, cost: number, onError: (error: unknown) => void): Promise<void> {
    if (!this.rates) return;
    const keyId = Number(key);
    try {
      const { limit, windowMs } = this.policy;
      const state = await this.rates.take({ keyId, bucket: this.policy.name, limit, windowMs, cost, force: true, now: this.now() });
      this.advance(key, state.tatMs);
    } catch (error) {
      onError(error);
    }
  }

  /** The mirror only moves forward: a store answer older than a local record does not undo it. */
  private advance(key: string, tatMs: number): void {
    const tat = Math.max(this.tat.get(key) ?? 0, tatMs);
    // A full bucket needs no entry: the map holds only keys with files counted.
    if (tat <= this.now()) this.tat.delete(key);
    else this.tat.set(key, tat);
  }
}
