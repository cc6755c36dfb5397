/**
 * One view of the metrics across the WORKERS processes. A scrape may land on any process (the
 * kernel spreads connections); the primary always answers it: it asks every worker for a
 * snapshot of its registry over the IPC channel src/cluster.ts opens, and merges them with its
 * own through prom-client's AggregatorRegistry.aggregate (counters and histograms add up, and
 * so do the gauges). A worker that gets a scrape asks the primary for that merged text.
 *
 * Counters must never go down, or Prometheus reads a reset and rate() jumps by the whole total.
 * So the primary keeps each worker's last snapshot: a worker too busy to answer in time is
 * counted with it, and a worker that exits keeps its last counts forever (gauges dropped). Every
 * number a scrape showed was in a kept snapshot, so the next scrape never shows less; what a
 * crashed worker counted after the last scrape is lost, never subtracted.
 */
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue, type Registry } from 'prom-client';

/** A registry's metrics as prom-client's getMetricsAsJSON gives them (structured-cloneable). */
export type Snapshot = MetricObjectWithValues<MetricValue<string>>[];

/** What a scrape answers. */
export interface MetricsText {
  text: string;
  contentType: string;
}

/** Renders the metrics a scrape of this process shows. */
export interface MetricsView {
  render(): Promise<MetricsText>;
}

/** Raised when a worker's primary does not answer a scrape in time. */
export class MetricsUnavailableError extends Error {
  override name = 'MetricsUnavailableError';
}

/** How long the primary waits for each worker's snapshot before using the last one it has. */
export const COLLECT_TIMEOUT_MS = 1000;
/** How long a worker waits for the primary's merged text: the primary's own wait, plus room. */
export const SCRAPE_TIMEOUT_MS = COLLECT_TIMEOUT_MS + 2000;

/** The IPC messages of the metrics protocol (all carry `kind: 'metrics'`). */
export type MetricsMessage =
  | { kind: 'metrics'; type: 'collect'; id: number }
  | { kind: 'metrics'; type: 'snapshot'; id: number; snapshot: Snapshot }
  | { kind: 'metrics'; type: 'scrape'; id: number }
  | { kind: 'metrics'; type: 'text'; id: number; text: string; contentType: string };

function isMetricsMessage(message: unknown): message is MetricsMessage {
  const m = message as Partial<MetricsMessage> | null;
  return typeof m === 'object' && m !== null && m.kind === 'metrics' && typeof m.type === 'string' && typeof m.id === 'number';
}

async function renderSnapshots(snapshots: Snapshot[]): Promise<MetricsText> {
  const merged = AggregatorRegistry.aggregate(snapshots);
  return { text: await merged.metrics(), contentType: merged.contentType };
}

/** One process alone (WORKERS=1, or an app in a test): its own registry. */
export function localView(registry: Registry): MetricsView {
  return { render: async () => ({ text: await registry.metrics(), contentType: registry.contentType }) };
}

/** Requests waiting for a reply, by id, each settled once (reply or timeout). */
class Pending<T> {
  private next = 1;
  private readonly waiting = new Map<number, (value: T | null) => void>();

  /** A new id and the promise of its reply (null after `timeoutMs`). */
  open(timeoutMs: number): { id: number; reply: Promise<T | null> } {
    const id = this.next++;
    const reply = new Promise<T | null>((resolve) => {
      const timer = setTimeout(() => this.settle(id, null), timeoutMs);
      this.waiting.set(id, (value) => {
        clearTimeout(timer);
        resolve(value);
      });
    });
    return { id, reply };
  }

  settle(id: number, value: T | null): void {
    const resolve = this.waiting.get(id);
    this.waiting.delete(id);
    resolve?.(value);
  }
}

/** How the primary reaches its workers (src/cluster.ts's WorkerSet). */
export interface WorkerLinks {
  pids(): number[];
  send(pid: number, message: MetricsMessage): boolean;
}

/** The primary's side: merges its own registry with every worker's, and answers workers' scrapes. */
export class PrimaryMetrics implements MetricsView {
  private workers: WorkerLinks | null = null;
  private readonly last = new Map<number, Snapshot>();
  private retired: Snapshot = [];
  private readonly snapshots = new Pending<Snapshot>();

  constructor(private readonly registry: Registry) {}

  /** Starts asking these workers (set once they are started). */
  attach(workers: WorkerLinks): void {
    this.workers = workers;
  }

  /** A message from worker `pid` (src/cluster.ts's onMessage); other kinds of message are ignored. */
  onMessage(message: unknown, pid: number): void {
    if (!isMetricsMessage(message)) return;
    if (message.type === 'snapshot' && Array.isArray(message.snapshot)) {
      this.last.set(pid, message.snapshot);
      this.snapshots.settle(message.id, message.snapshot);
    } else if (message.type === 'scrape') {
      void this.render().then(
        ({ text, contentType }) => this.workers?.send(pid, { kind: 'metrics', type: 'text', id: message.id, text, contentType }),
        () => {},
      );
    }
  }

  /** Worker `pid` exited: its last counters stay in every later scrape; its gauges go. */
  async onExit(pid: number): Promise<void> {
    const snapshot = this.last.get(pid);
    this.last.delete(pid);
    if (!snapshot) return;
    const counts = snapshot.filter((metric) => String(metric.type) !== 'gauge');
    // Merged into one snapshot, so restarts over months do not pile up.
    this.retired = await AggregatorRegistry.aggregate([this.retired, counts]).getMetricsAsJSON();
  }

  private async collect(pid: number): Promise<Snapshot | undefined> {
    const { id, reply } = this.snapshots.open(COLLECT_TIMEOUT_MS);
    if (!this.workers?.send(pid, { kind: 'metrics', type: 'collect', id })) this.snapshots.settle(id, null);
    return (await reply) ?? this.last.get(pid);
  }

  async render(): Promise<MetricsText> {
    const pids = this.workers?.pids() ?? [];
    const [own, ...workers] = await Promise.all([this.registry.getMetricsAsJSON(), ...pids.map((pid) => this.collect(pid))]);
    const found = workers.filter((snapshot): snapshot is Snapshot => snapshot !== undefined);
    return renderSnapshots([own, ...found, this.retired]);
  }
}

/** How a worker reaches its primary (src/cluster.ts's primaryChannel). */
export interface PrimaryLink {
  send(message: MetricsMessage): void;
  onMessage(handler: (message: unknown) => void): void;
}

/** A worker's side: answers the primary's collects with its registry, and forwards its own scrapes to the primary. */
export function workerView(registry: Registry, primary: PrimaryLink): MetricsView {
  const texts = new Pending<MetricsText>();
  primary.onMessage((message) => {
    if (!isMetricsMessage(message)) return;
    if (message.type === 'collect') {
      void registry.getMetricsAsJSON().then((snapshot) => primary.send({ kind: 'metrics', type: 'snapshot', id: message.id, snapshot }));
    } else if (message.type === 'text') {
      texts.settle(message.id, { text: message.text, contentType: message.contentType });
    }
  });
  return {
    async render() {
      const { id, reply } = texts.open(SCRAPE_TIMEOUT_MS);
      primary.send({ kind: 'metrics', type: 'scrape', id });
      const text = await reply;
      if (!text) throw new MetricsUnavailableError('the primary process did not answer');
      return text;
    },
  };
}

/**
 * The view of a `serve` process: a worker (it has a link to its primary) forwards scrapes; a
 * primary merges its workers' snapshots (`primary`, to attach once they are started).
 */
export function serveView(registry: Registry, toPrimary: PrimaryLink | null): { view: MetricsView; primary: PrimaryMetrics | null } {
  if (toPrimary) return { view: workerView(registry, toPrimary), primary: null };
  const primary = new PrimaryMetrics(registry);
  return { view: primary, primary };
}
