/**
 * The service's Prometheus metrics, one prom-client Registry per process. Every count happens in
 * two places only: observeRequest (src/http/observe.ts) for finished requests and the batch stream
 * for files; the queue depth is read when scraped. src/metrics/cluster.ts merges the processes.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FinishedRequest, ServiceMetrics } from './types';

/** Prefix of every metric name (Prometheus naming: the application first). */
export const METRIC_PREFIX = 'ai_detector_';

/**
 * Latency buckets in seconds. A single detection of 500 words takes ~1-3 ms of CPU and a few ms
 * end to end on the reference machine (docs/performance.md); a batch runs for seconds up to its
 * 120 s budget, so the buckets span both.
 */
export const LATENCY_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** Error codes counted as quota rejections. */
const QUOTA_CODES = new Set(['quota_exceeded', 'exceeds_plan', 'trial_calls_exhausted', 'rate_limited']);

/** What the metrics read when scraped. */
export interface MetricsSources {
  /** PDF/DOCX extractions waiting for or running on this process's extraction workers. */
  extractionQueue?: () => number;
}

/** A process's registry and the ServiceMetrics that count into it. */
export interface ProcessMetrics {
  registry: Registry;
  metrics: ServiceMetrics;
}

/** Creates the registry of one process with every metric of the service. */
export function createProcessMetrics(sources: MetricsSources = {}): ProcessMetrics {
  const registry = new Registry();
  const registers = [registry];
  const requests = new Counter({
    name: `${METRIC_PREFIX}http_requests_total`,
    help: 'Finished HTTP requests by route pattern, method and status (499: the client closed the connection first).',
    labelNames: ['route', 'method', 'status'] as const,
    registers,
  });
  const latency = new Histogram({
    name: `${METRIC_PREFIX}http_request_duration_seconds`,
    help: 'Time from the request to its last byte (a batch: the whole stream), by route pattern and, on /api/detect, mode.',
    labelNames: ['route', 'mode'] as const,
    buckets: LATENCY_BUCKETS_SECONDS,
    registers,
  });
  const words = new Counter({
    name: `${METRIC_PREFIX}words_analysed_total`,
    help: 'Words of the texts analysed and delivered (the words charged to quotas), by mode.',
    labelNames: ['mode'] as const,
    registers,
  });
  const rejections = new Counter({
    name: `${METRIC_PREFIX}quota_rejections_total`,
    help: 'Requests refused for quota or rate, by code: quota_exceeded, exceeds_plan (413), trial_calls_exhausted, rate_limited.',
    labelNames: ['code'] as const,
    registers,
  });
  const batchFiles = new Counter({
    name: `${METRIC_PREFIX}batch_files_total`,
    help: 'Files of batch streams by outcome: result, or the code of the error line.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const extractionQueue = sources.extractionQueue;
  new Gauge({
    name: `${METRIC_PREFIX}extraction_queue_depth`,
    help: 'PDF/DOCX extractions waiting for or running on an extraction worker thread, summed over the processes.',
    registers,
    collect() {
      this.set(extractionQueue?.() ?? 0);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}processes`,
    help: 'Server processes whose counts this scrape includes (WORKERS).',
    registers,
    collect() {
      this.set(1);
    },
  });
  const metrics: ServiceMetrics = {
    request(r: FinishedRequest) {
      requests.inc({ route: r.route, method: r.method, status: String(r.status) });
      latency.observe(r.mode ? { route: r.route, mode: r.mode } : { route: r.route }, r.durationSeconds);
      if (r.analysedWords > 0) words.inc({ mode: r.mode ?? 'single' }, r.analysedWords);
      if (r.code !== null && QUOTA_CODES.has(r.code)) rejections.inc({ code: r.code });
    },
    batchFile(outcome: string) {
      batchFiles.inc({ outcome });
    },
  };
  return { registry, metrics };
}
