/**
 * The write-behind queue of usage events, shared by both stores. An event is analytics, not
 * billing (the quota counter is charged in its own statement), so events are buffered and written
 * together FLUSH_DELAY_MS after the first one, or at once when FLUSH_MAX_EVENTS are waiting.
 * A failed write keeps its events and is retried with backoff (a lock held elsewhere, PostgreSQL
 * restarting); only past MAX_QUEUED_EVENTS are the oldest dropped, and that is logged. What a
 * crash (SIGKILL, power loss) can lose is what was still queued, never words.
 */
import type { UsageEvent, UsageSink } from './types';
import { driverCode, unavailable } from './errors';
import type { StoreEventSink } from './options';

/** Longest an event waits in memory before it is written. */
export const FLUSH_DELAY_MS = 50;
/** A queue this long is written at once. */
export const FLUSH_MAX_EVENTS = 256;
/** Events kept while the store is down (~100 bytes each: ~10 MB); beyond, the oldest are dropped. */
export const MAX_QUEUED_EVENTS = 100_000;
/** First pause after a failed write; doubled up to RETRY_MAX_DELAY_MS. */
const RETRY_FIRST_DELAY_MS = 100;
/** Longest pause between retries: events reach the table within about this once the store is back. */
const RETRY_MAX_DELAY_MS = 1_000;

/** Writes a batch of events in one transaction or statement (sync for SQLite, async for PostgreSQL). */
export type WriteEvents = (events: UsageEvent[]) => void | Promise<void>;

/** A queue of events in front of `write`. */
export class UsageBuffer {
  private queue: UsageEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private writing: Promise<void> | null = null;
  private failures = 0;
  private dropped = 0;

  constructor(
    private readonly write: WriteEvents,
    /** Told about usage_flush_failed, usage_flush_recovered and usage_events_dropped. */
    private readonly report: StoreEventSink,
  ) {}

  /** Events waiting to be written. */
  get queued(): number {
    return this.queue.length;
  }

  /** Queues one event; never throws. */
  record(event: UsageEvent): void {
    this.queue.push(event);
    if (this.queue.length > MAX_QUEUED_EVENTS) {
      this.queue.splice(0, this.queue.length - MAX_QUEUED_EVENTS);
      this.dropped++;
      if (this.dropped === 1 || this.dropped % 10_000 === 0) this.report('usage_events_dropped', { dropped: this.dropped });
    }
    if (this.failures > 0) return; // the retry timer takes it
    if (this.queue.length >= FLUSH_MAX_EVENTS) this.flushSoon(0);
    else if (!this.timer) this.flushSoon(FLUSH_DELAY_MS);
  }

  /** Writes everything queued now; rejects (keeping the events, with a retry scheduled) when the write fails. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.writing) await this.writing.catch(() => {});
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    // Started in a microtask, so `writing` is set before a synchronous writer (SQLite) returns or throws.
    const writing = Promise.resolve().then(() => this.write(batch));
    this.writing = writing;
    try {
      await writing;
    } catch (error) {
      this.queue = batch.concat(this.queue);
      this.failed(error);
      throw error;
    } finally {
      if (this.writing === writing) this.writing = null;
    }
    if (this.failures > 0) this.report('usage_flush_recovered', { attempts: this.failures });
    this.failures = 0;
    if (this.queue.length > 0 && !this.timer) this.flushSoon(this.queue.length >= FLUSH_MAX_EVENTS ? 0 : FLUSH_DELAY_MS);
  }

  /** For process exit, where timers no longer run: one last synchronous attempt (SQLite only). */
  flushSync(): void {
    if (this.queue.length === 0 || this.writing) return;
    const batch = this.queue;
    this.queue = [];
    try {
      void this.write(batch);
    } catch {
      // The database may already be closed; nothing else can be done at exit.
    }
  }

  /** For shutdown: writes what is queued, retrying a failing store until `timeoutMs` has passed, then stops the timers. */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (this.queued > 0 && performance.now() < deadline) await this.flush().catch(() => Bun.sleep(RETRY_FIRST_DELAY_MS));
    this.stop();
  }

  /** Stops the timers (the queue stays; call flush() first to write it). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private flushSoon(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flushInBackground(), delayMs);
    // A pending write never keeps a finished process alive: close() and exit flush it.
    this.timer.unref();
  }

  private async flushInBackground(): Promise<void> {
    this.timer = null;
    // A failure is already counted, reported and scheduled for a retry by flush().
    await this.flush().catch(() => {});
  }

  private failed(error: unknown): void {
    this.failures++;
    if (this.failures === 1) this.report('usage_flush_failed', { name: driverCode(error), queued: this.queue.length });
    this.flushSoon(Math.min(RETRY_MAX_DELAY_MS, RETRY_FIRST_DELAY_MS * 2 ** (this.failures - 1)));
  }
}

/** The UsageSink over a buffer; `count` reads the stored events of a key. */
export function bufferedSink(buffer: UsageBuffer, count: (keyId: number) => Promise<number>): Omit<UsageSink, 'compact'> {
  return {
    record: (event) => buffer.record(event),
    flush: () =>
      buffer.flush().catch((error) => {
        throw unavailable(error);
      }),
    async countForKey(keyId) {
      // This process's queued events are counted too; a store that is down leaves them queued.
      await buffer.flush().catch(() => {});
      return count(keyId);
    },
  };
}
