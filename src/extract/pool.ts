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
export type ExtractTaskOptions = { signal?: AbortSignal; limits?: ExtractLimits; transfer?: boolean; owner?: TaskOwner; gate?: TaskGate };

/**
 * Asked when a worker is free for the task whether it may still run (`admit` returns the error to
 * fail it with instead, e.g. extract_throttled), and told how every task that ran ended (`ended`,
 * the error or null), before the next task is admitted.
 */
export interface TaskGate {
  admit(): ExtractError | undefined;
  ended(error: unknown): void;
}

/**
 * Whose file it is, for the fair queue: `key` (e.g. the API key's id) and, within it, `request`
 * (one batch). Tasks without an owner share one anonymous owner: first in, first out.
 */
export type TaskOwner = { key: string; request: string };

/** What one owner (a key, or a request within a key) has queued and running, and the worker time it has used. */
type Share = { used: number; started: number; running: number; waiting: number };
type Flow = Share & { queue: Task[] };
type Tenant = Share & { flows: Map<string, Flow> };

type Task = {
  request: WorkerRequest;
  signal?: AbortSignal;
  resolve(text: string): void;
  reject(error: unknown): void;
  onAbort?: () => void;
  timer?: ReturnType<typeof setTimeout>;
  tenantKey: string;
  flowKey: string;
  /** performance.now() when a worker took it. */
  startedAt?: number;
  gate?: TaskGate;
};
type Slot = { worker: Worker; task: Task | null };

const ANONYMOUS: TaskOwner = { key: '', request: '' };

/**
 * A pool of Bun Workers for MD/PDF/DOCX extraction. TXT is decoded inline. Tasks queue when
 * every worker is busy, in a fair queue (issue 23): each owner is charged the worker time its
 * tasks take (running ones included), and a free worker takes the next task of the key that has
 * used the least, then of that key's request that has used the least; an owner that starts
 * queueing joins at the least time of those already there (idle time is not banked), ties go to
 * the owner that has started fewer tasks, then has fewer waiting, then came first. So one key's 20 slow files never
 * sit ahead of another key's (or request's) single file: it waits for the files already running,
 * at most. Aborting a queued task drops it, aborting a running one terminates its
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
  /** The fair queue: tenants (keys) in arrival order, each with its flows (requests). Idle owners are dropped. */
  private readonly tenants = new Map<string, Tenant>();
  private queued = 0;
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
      : await this.runInWorker(
          format,
          options.transfer && ownsWholeBuffer(bytes) ? bytes : bytes.slice(),
          limits,
          options.signal,
          options.owner ?? ANONYMOUS,
          options.gate,
        );
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
    return this.queued + this.slots.filter((s) => s.task !== null).length;
  }

  /** Terminates every worker and rejects whatever is queued or running. */
  close(): void {
    this.closed = true;
    this.watchRss(false);
    const error = new ExtractError('extract_failed', 'the extraction pool was closed');
    for (const tenant of this.tenants.values()) {
      for (const flow of tenant.flows.values()) for (const task of flow.queue.splice(0)) this.settle(task, error);
    }
    this.queued = 0;
    for (const slot of this.slots.splice(0)) {
      if (slot.task) this.settle(slot.task, error);
      slot.worker.terminate();
    }
  }

  /** `bytes` must be owned by the pool from here on: its buffer is transferred to the worker. */
  private runInWorker(
    format: FileFormat,
    bytes: Uint8Array,
    limits: ExtractLimits,
    signal: AbortSignal | undefined,
    owner: TaskOwner,
    gate?: TaskGate,
  ): Promise<string> {
    if (this.closed) return Promise.reject(new ExtractError('extract_failed', 'the extraction pool was closed'));
    return new Promise<string>((resolve, reject) => {
      const request: WorkerRequest = { id: this.nextId++, format, bytes, limits, heapLimitBytes: this.heapLimitBytes };
      const task: Task = { request, signal, resolve, reject, tenantKey: owner.key, flowKey: owner.request, gate };
      if (signal) {
        task.onAbort = () => this.abort(task);
        signal.addEventListener('abort', task.onAbort, { once: true });
      }
      this.enqueue(task);
      this.dispatch();
    });
  }

  /** Worker time each owner's running tasks have used so far (they are charged in full when they end). */
  private inProgress(now: number): Map<Share, number> {
    const busy = new Map<Share, number>();
    for (const slot of this.slots) {
      const task = slot.task;
      if (!task || task.startedAt === undefined) continue;
      const tenant = this.tenants.get(task.tenantKey);
      const flow = tenant?.flows.get(task.flowKey);
      for (const share of [tenant, flow]) if (share) busy.set(share, (busy.get(share) ?? 0) + now - task.startedAt);
    }
    return busy;
  }

  /** The least time used among `shares` (running time included), for an owner that joins them. */
  private static floor(shares: Iterable<Share>, busy: Map<Share, number>): number {
    let least = Number.POSITIVE_INFINITY;
    for (const share of shares) least = Math.min(least, share.used + (busy.get(share) ?? 0));
    return Number.isFinite(least) ? least : 0;
  }

  private enqueue(task: Task): void {
    const busy = this.inProgress(performance.now());
    let tenant = this.tenants.get(task.tenantKey);
    if (!tenant) {
      tenant = { used: ExtractPool.floor(this.tenants.values(), busy), started: 0, running: 0, waiting: 0, flows: new Map() };
      this.tenants.set(task.tenantKey, tenant);
    }
    let flow = tenant.flows.get(task.flowKey);
    if (!flow) {
      flow = { used: ExtractPool.floor(tenant.flows.values(), busy), started: 0, running: 0, waiting: 0, queue: [] };
      tenant.flows.set(task.flowKey, flow);
    }
    flow.queue.push(task);
    tenant.waiting++;
    flow.waiting++;
    this.queued++;
  }

  /** The owner among `shares` that has used the least worker time, then started the fewest tasks, then has the fewest waiting, then came first. */
  private static least<S extends Share>(shares: Iterable<S>, busy: Map<Share, number>, eligible: (share: S) => boolean): S | undefined {
    let best: S | undefined;
    let bestUsed = 0;
    for (const share of shares) {
      if (!eligible(share)) continue;
      const used = share.used + (busy.get(share) ?? 0);
      const before =
        !best ||
        used < bestUsed ||
        (used === bestUsed && (share.started < best.started || (share.started === best.started && share.waiting < best.waiting)));
      if (before) {
        best = share;
        bestUsed = used;
      }
    }
    return best;
  }

  /** Takes the next task out of the fair queue (see the class comment). */
  private next(): Task | undefined {
    if (this.queued === 0) return undefined;
    const busy = this.inProgress(performance.now());
    const hasQueued = (flow: Flow) => flow.queue.length > 0;
    const tenant = ExtractPool.least(this.tenants.values(), busy, (t) => [...t.flows.values()].some(hasQueued));
    const flow = tenant && ExtractPool.least(tenant.flows.values(), busy, hasQueued);
    if (!tenant || !flow) return undefined;
    const task = flow.queue.shift()!;
    this.queued--;
    for (const share of [tenant, flow]) {
      share.started++;
      share.running++;
      share.waiting--;
    }
    task.startedAt = performance.now();
    return task;
  }

  /** Charges a task that ran to its owners, and drops owners with nothing queued or running. */
  private release(task: Task): void {
    const tenant = this.tenants.get(task.tenantKey);
    const flow = tenant?.flows.get(task.flowKey);
    if (!tenant || !flow) return;
    if (task.startedAt !== undefined) {
      const ms = performance.now() - task.startedAt;
      for (const share of [tenant, flow]) {
        share.used += ms;
        share.running--;
      }
      task.startedAt = undefined;
    }
    if (flow.queue.length === 0 && flow.running === 0) tenant.flows.delete(task.flowKey);
    if (tenant.flows.size === 0) this.tenants.delete(task.tenantKey);
  }

  private dispatch(): void {
    while (this.queued > 0) {
      let slot = this.slots.find((s) => s.task === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const task = this.next();
      if (!task) return;
      const refused = task.gate?.admit();
      if (refused) {
        this.settle(task, refused, '', false);
        continue;
      }
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
    const tenant = this.tenants.get(task.tenantKey);
    const flow = tenant?.flows.get(task.flowKey);
    const queued = tenant && flow && task.startedAt === undefined ? flow.queue.indexOf(task) : -1;
    if (tenant && flow && queued >= 0) {
      flow.queue.splice(queued, 1);
      tenant.waiting--;
      flow.waiting--;
      this.queued--;
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

  /** Ends a task; `ran` false when it was refused by its gate before a worker took it. */
  private settle(task: Task, error: unknown, text = '', ran = true): void {
    clearTimeout(task.timer);
    // The gate hears before the next task is admitted (dispatch runs after this).
    if (ran && task.startedAt !== undefined) task.gate?.ended(error);
    this.release(task);
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
