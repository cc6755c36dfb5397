import { coreCount } from '../cores.ts';
import { ExtractError, limitError } from './errors.ts';
import { checkAndSniff, extractFormat, finish, INLINE_FORMATS, type ExtractResult } from './index.ts';
import { DEFAULT_EXTRACT_LIMITS, type ExtractLimits } from './limits.ts';
import type { WorkerRequest, WorkerResponse } from './protocol.ts';
import type { FileFormat } from './sniff.ts';
import { resolveWorkerUrl } from './worker-url.ts';

/** 30 s per file: a 300-page text PDF takes well under 5 s on one core; more means a hostile file. */
export const DEFAULT_TASK_TIMEOUT_MS = 30_000;
/** One core is left to the event loop so single-text requests keep their latency. */
export const DEFAULT_POOL_SIZE = Math.max(1, coreCount() - 1);
const MB = 1024 * 1024;
/**
 * 512 MB of heap per worker: the largest legitimate files stay well under it (a DOCX yielding
 * 10.4M characters, the text limit, took a process from 47 to 154 MB of RSS; a 300-page PDF
 * leaves 21 MB of heap), while the issue-16 bombs went to 1.7-2.9 GB before the budgets existed.
 */
export const DEFAULT_HEAP_LIMIT_BYTES = 512 * MB;
/**
 * The process RSS the pool defends by default (see rssLimitBytes): each worker's heap ceiling plus
 * this much for the main thread (~70 MB idle; the engine's WebAssembly memory alone grows to
 * ~290 MB after scoring an 8.5 MB text) and requests in flight.
 */
export const RSS_HEADROOM_BYTES = 512 * MB;
/** How often process RSS is sampled while a task runs (a sample costs ~5 us). */
const RSS_SAMPLE_MS = 100;
/** A worker whose heap is still above this share of its ceiling after a task is replaced by a fresh one. */
const RECYCLE_HEAP_SHARE = 0.5;

/** Options for ExtractPool. */
export type ExtractPoolOptions = {
  size?: number;
  taskTimeoutMs?: number;
  limits?: ExtractLimits;
  /** Heap ceiling of each worker thread, checked from inside the parsers (default DEFAULT_HEAP_LIMIT_BYTES). */
  heapLimitBytes?: number;
  /**
   * Last resort against allocations the in-thread checks cannot see: while tasks run, process RSS
   * above this terminates the running workers (their files fail with extract_limit `memory`).
   * Default: size x heapLimitBytes + RSS_HEADROOM_BYTES.
   */
  rssLimitBytes?: number;
  /** Defaults to resolveWorkerUrl(): works under `bun run` and in a compiled binary. */
  workerUrl?: string | URL;
};

/**
 * Per-call options: an AbortSignal (e.g. the request's), limits overriding the pool's, and
 * `transfer` when the caller will not use `bytes` again: their buffer then moves to the worker
 * (left detached here) instead of being copied.
 */
export type ExtractTaskOptions = { signal?: AbortSignal; limits?: ExtractLimits; transfer?: boolean };

type Task = {
  request: WorkerRequest;
  signal?: AbortSignal;
  resolve(text: string): void;
  reject(error: unknown): void;
  onAbort?: () => void;
  timer?: ReturnType<typeof setTimeout>;
};
type Slot = { worker: Worker; task: Task | null };

/**
 * A pool of Bun Workers for MD/PDF/DOCX extraction. TXT is decoded inline. Tasks queue when
 * every worker is busy; aborting a queued task drops it, aborting a running one terminates its
 * worker (pdf.js cannot be interrupted) and starts a fresh one. A task over its time budget
 * rejects with extract_timeout; a crashed worker rejects with extract_failed and is replaced.
 * Memory: each worker checks its own heap against heapLimitBytes while it parses (extract_limit
 * `memory`), is replaced when a task leaves its heap above half of that, and the whole process's
 * RSS is watched while tasks run (rssLimitBytes).
 */
export class ExtractPool {
  readonly size: number;
  private readonly timeoutMs: number;
  private readonly limits: ExtractLimits;
  private readonly heapLimitBytes: number;
  private readonly rssLimitBytes: number;
  private readonly workerUrl: string | URL;
  private rssTimer: ReturnType<typeof setInterval> | null = null;
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;
  /** Workers terminated and replaced (abort, timeout, crash, memory), for tests and metrics. */
  replaced = 0;
  /** Workers retired after a task because their heap stayed high, for tests and metrics. */
  recycled = 0;

  constructor(options: ExtractPoolOptions = {}) {
    const { size = DEFAULT_POOL_SIZE, taskTimeoutMs = DEFAULT_TASK_TIMEOUT_MS, heapLimitBytes = DEFAULT_HEAP_LIMIT_BYTES } = options;
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`pool size must be a positive integer, got ${size}`);
    if (!(taskTimeoutMs > 0)) throw new RangeError(`taskTimeoutMs must be positive, got ${taskTimeoutMs}`);
    if (!(heapLimitBytes > 0)) throw new RangeError(`heapLimitBytes must be positive, got ${heapLimitBytes}`);
    const rssLimitBytes = options.rssLimitBytes ?? size * heapLimitBytes + RSS_HEADROOM_BYTES;
    if (!(rssLimitBytes > 0)) throw new RangeError(`rssLimitBytes must be positive, got ${rssLimitBytes}`);
    this.size = size;
    this.timeoutMs = taskTimeoutMs;
    this.heapLimitBytes = heapLimitBytes;
    this.rssLimitBytes = rssLimitBytes;
    this.limits = options.limits ?? DEFAULT_EXTRACT_LIMITS;
    this.workerUrl = options.workerUrl ?? resolveWorkerUrl();
  }

  /** Bytes -> { format, text }; rejects with ExtractError, or with `signal.reason` when aborted. */
  async extract(bytes: Uint8Array, fileName: string, options: ExtractTaskOptions = {}): Promise<ExtractResult> {
    const limits = options.limits ?? this.limits;
    options.signal?.throwIfAborted();
    const format = checkAndSniff(bytes, fileName, limits);
    const text = INLINE_FORMATS.has(format)
      ? await extractFormat(format, bytes, limits)
      : await this.runInWorker(format, options.transfer && ownsWholeBuffer(bytes) ? bytes : bytes.slice(), limits, options.signal);
    return finish(format, text, limits);
  }

  /** Spawns every worker now (each starts loading pdf.js), e.g. at server start-up. */
  prestart(): void {
    while (!this.closed && this.slots.length < this.size) this.spawn();
  }

  /** Live workers (spawned lazily up to `size`). */
  get workers(): number {
    return this.slots.length;
  }

  /** Queued plus running tasks. */
  get pending(): number {
    return this.queue.length + this.slots.filter((s) => s.task !== null).length;
  }

  /** Terminates every worker and rejects whatever is queued or running. */
  close(): void {
    this.closed = true;
    this.watchRss(false);
    const error = new ExtractError('extract_failed', 'the extraction pool was closed');
    for (const task of this.queue.splice(0)) this.settle(task, error);
    for (const slot of this.slots.splice(0)) {
      if (slot.task) this.settle(slot.task, error);
      slot.worker.terminate();
    }
  }

  /** `bytes` must be owned by the pool from here on: its buffer is transferred to the worker. */
  private runInWorker(format: FileFormat, bytes: Uint8Array, limits: ExtractLimits, signal?: AbortSignal): Promise<string> {
    if (this.closed) return Promise.reject(new ExtractError('extract_failed', 'the extraction pool was closed'));
    return new Promise<string>((resolve, reject) => {
      const request: WorkerRequest = { id: this.nextId++, format, bytes, limits, heapLimitBytes: this.heapLimitBytes };
      const task: Task = { request, signal, resolve, reject };
      if (signal) {
        task.onAbort = () => this.abort(task);
        signal.addEventListener('abort', task.onAbort, { once: true });
      }
      this.queue.push(task);
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.task === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const task = this.queue.shift()!;
      slot.task = task;
      task.timer = setTimeout(() => this.timeOut(task), this.timeoutMs);
      refWorker(slot.worker, true);
      slot.worker.postMessage(task.request, [task.request.bytes.buffer as ArrayBuffer]);
    }
    this.watchRss(this.slots.some((s) => s.task !== null));
  }

  /** Samples process RSS while any task runs; stops when the pool is idle. */
  private watchRss(on: boolean): void {
    if (on && !this.rssTimer) {
      this.rssTimer = setInterval(() => this.checkRss(), RSS_SAMPLE_MS);
      // Never keeps a CLI process alive by itself.
      (this.rssTimer as unknown as { unref?(): void }).unref?.();
    } else if (!on && this.rssTimer) {
      clearInterval(this.rssTimer);
      this.rssTimer = null;
    }
  }

  private checkRss(): void {
    const rss = process.memoryUsage.rss();
    if (rss <= this.rssLimitBytes) return;
    // Which thread grew cannot be told from outside: every running task is stopped.
    const limitMb = Math.round(this.rssLimitBytes / MB);
    for (const slot of this.slots.filter((s) => s.task !== null)) {
      this.replace(slot, limitError('memory', limitMb, `the process passed ${limitMb} MB of RSS while extracting`));
    }
  }

  private spawn(): Slot {
    const worker = new Worker(this.workerUrl);
    const slot: Slot = { worker, task: null };
    // Idle workers must not keep a CLI process alive; a busy one is ref'd in dispatch().
    refWorker(worker, false);
    worker.onmessage = (event: MessageEvent<WorkerResponse>) => this.onResponse(slot, event.data);
    worker.onerror = (event) => this.replace(slot, new ExtractError('extract_failed', `extraction worker crashed: ${event.message}`));
    // A worker that exits without an error event (process.exit, fatal OOM) is replaced too;
    // after our own terminate() the slot is already gone and replace() does nothing.
    worker.addEventListener('close', () => this.replace(slot, new ExtractError('extract_failed', 'extraction worker exited')));
    this.slots.push(slot);
    return slot;
  }

  private onResponse(slot: Slot, response: WorkerResponse): void {
    const task = slot.task;
    if (!task || task.request.id !== response.id) return;
    slot.task = null;
    refWorker(slot.worker, false);
    if (response.heapBytes > this.heapLimitBytes * RECYCLE_HEAP_SHARE) this.retire(slot);
    if (response.ok) this.settle(task, null, response.text);
    else this.settle(task, new ExtractError(response.code, response.message, response.params));
    this.dispatch();
  }

  /** Terminates an idle worker whose heap stayed high; dispatch() spawns a fresh one when needed. */
  private retire(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    slot.worker.terminate();
    this.recycled++;
  }

  private abort(task: Task): void {
    const queued = this.queue.indexOf(task);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.settle(task, task.signal?.reason ?? new DOMException('aborted', 'AbortError'));
      return;
    }
    const slot = this.slots.find((s) => s.task === task);
    if (slot) this.replace(slot, task.signal?.reason ?? new DOMException('aborted', 'AbortError'));
  }

  private timeOut(task: Task): void {
    const slot = this.slots.find((s) => s.task === task);
    if (slot) this.replace(slot, new ExtractError('extract_timeout', `extraction took longer than ${this.timeoutMs} ms`));
  }

  /** Fails the slot's task, terminates its worker and puts a fresh one in its place. */
  private replace(slot: Slot, error: unknown): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    slot.worker.terminate();
    this.replaced++;
    if (slot.task) this.settle(slot.task, error);
    if (!this.closed) this.dispatch();
    else this.watchRss(false);
  }

  private settle(task: Task, error: unknown, text = ''): void {
    clearTimeout(task.timer);
    if (task.onAbort) task.signal?.removeEventListener('abort', task.onAbort);
    if (error) task.reject(error);
    else task.resolve(text);
  }
}

/** True when `bytes` spans its whole buffer (a view into a shared slab must never be transferred). */
function ownsWholeBuffer(bytes: Uint8Array): boolean {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
}

/** Bun's Worker has ref()/unref() (like Node's); the DOM typings in lib do not know them. */
function refWorker(worker: Worker, keepAlive: boolean): void {
  const bunWorker = worker as unknown as { ref(): void; unref(): void };
  if (keepAlive) bunWorker.ref();
  else bunWorker.unref();
}
