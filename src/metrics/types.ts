/**
 * What the request path reports to the metrics (src/metrics/registry.ts implements it). A leaf
 * with no imports, so src/http and the modules can depend on it without depending on prom-client.
 */

/** One finished request, as observeRequest sees it. */
export interface FinishedRequest {
  /** The route's pattern (`/api/detect`, `/swagger/assets/:name`), `unmatched` for unknown paths: never the raw path. */
  route: string;
  method: string;
  status: number;
  durationSeconds: number;
  /** Single or batch mode, when the request reached POST /api/detect's handler. */
  mode?: 'single' | 'batch';
  /** Words of the texts analysed and delivered (0 for a failed request). */
  analysedWords: number;
  /** The error code, if the answer was an error. */
  code: string | null;
}

/** Counters the service keeps; every call is cheap and never throws. */
export interface ServiceMetrics {
  /** Counts one finished request (requests, latency, words, quota rejections). */
  request(request: FinishedRequest): void;
  /** Counts one file of a batch by outcome: `result`, or the code of its error line. */
  batchFile(outcome: string): void;
}
