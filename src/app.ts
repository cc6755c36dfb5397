/** createApp(deps): mounts the modules on one Elysia app with one error mapper. No globals. */
import { Elysia } from 'elysia';
import type { Config } from './config';
import type { Detector } from './detector/types';
import type { OpenStreams } from './http/open-streams';
import type { RouteEntry } from './http/routes';
import { authPlugin, corsPlugin, errorMapper, langPlugin, observePlugin, requestIdPlugin, silentLogger, type Logger } from './http';
import { rateLimitPlugin } from './http/rate-limit';
import { localView, type MetricsView } from './metrics/cluster';
import { createProcessMetrics } from './metrics/registry';
import type { ServiceMetrics } from './metrics/types';
import { createBatchHandler, exhaustedFilesFor, extractPoolFor } from './modules/batch';
import {
  CALIBRATION_CREATE_ROUTE,
  CALIBRATION_READ_ROUTES,
  CALIBRATION_ROUTES,
  calibrationsModule,
  findProfile,
} from './modules/calibrations';
import { DETECT_ROUTES, detectModule, type HandleBatch } from './modules/detect';
import { docsModule } from './modules/docs';
import {
  calibrationOperations,
  detectAliasOperation,
  detectBatchOperation,
  detectOperation,
  limitsOperation,
  usageOperation,
} from './modules/docs/openapi';
import { healthModule, scoringProbe } from './modules/health';
import { metricsModule } from './modules/metrics';
import { findActiveKey } from './modules/keys';
import { createHolds, getQuotaState, rateLimitHeaders, type Holds } from './modules/quota';
import { admitRequest, bucketOf } from './modules/rate';
import { LIMITS_ROUTE, limitsModule } from './modules/limits';
import { createIdempotency } from './modules/idempotency';
import { USAGE_ROUTE, usageModule } from './modules/usage';
import { webRoutes } from './modules/web';
import { modelVersion } from './model-version';
import type { Store } from './store/types';

/** Everything the app needs, injected by main.ts (or by a test). */
export interface AppDeps {
  config: Config;
  /** Keys, quotas and usage events (SQLite or PostgreSQL: src/store). */
  store: Pick<Store, 'keys' | 'quota' | 'usage' | 'health' | 'idempotency' | 'rates' | 'ledger' | 'calibrations'>;
  detector: Detector;
  /** Version of the model the detector loaded (default: the committed model's, src/model-version.ts). */
  modelVersion?: string;
  logger?: Logger;
  /** Longest a duplicate Idempotency-Key request waits for the first before 409 (default 10 s). */
  idempotencyWaitMs?: number;
  /** Batch mode (default: src/modules/batch with its extraction pool). */
  handleBatch?: HandleBatch;
  /** Charges held while results are delivered (default: this app's own; serve.ts passes one it settles before closing the store). */
  holds?: Holds;
  /** Aborted when the server begins to stop (serve.ts, SIGTERM): batch streams end early with a complete line. */
  stopping?: AbortSignal;
  /** The batch streams still open (serve.ts waits for them when it stops). */
  streams?: OpenStreams;
  /** Counters and what GET /metrics shows (default: this process alone; serve.ts gives the WORKERS-wide view). */
  metrics?: { metrics: ServiceMetrics; view: MetricsView };
}

/** Routes that read or manage the key's own account: they take from the `reads` budget, not the detections'. */
const readOrRequest = bucketOf([USAGE_ROUTE, LIMITS_ROUTE, ...CALIBRATION_READ_ROUTES]);

/** Metrics of an app that runs alone: its own registry, rendered as is. */
function ownMetrics(config: Config): { metrics: ServiceMetrics; view: MetricsView } {
  const { registry, metrics } = createProcessMetrics({ extractionQueue: () => extractPoolFor(config).pending });
  return { metrics, view: localView(registry) };
}

/**
 * Builds the HTTP app. Hook order matters: the request id first (every answer carries it), then
 * CORS (a preflight is answered before anything else), then language (so even a 401 is localized), then the key check.
 */
export function createApp(deps: AppDeps) {
  const logger = deps.logger ?? silentLogger;
  const version = deps.modelVersion ?? modelVersion();
  const { keys, quota, usage } = deps.store;
  const { metrics, view } = deps.metrics ?? ownMetrics(deps.config);
  // One set of holds for the routes that charge (detect, batch, calibrations).
  const holds = deps.holds ?? createHolds({ quota, ledger: deps.store.ledger, onEvent: (event, fields) => logger.error(event, fields) });
  // The mapper reads the route table lazily (after every module is mounted) to answer 405.
  const table: { routes: readonly RouteEntry[] } = { routes: [] };
  // standardHostname off: Elysia otherwise assumes a Host of 4+ characters and, for `Host: app`,
  // reads /api/detect as /detect (404 instead of 405, wrong paths in messages and logs).
  const app = new Elysia({ handler: { standardHostname: false } })
    .use(requestIdPlugin())
    .use(corsPlugin({ origins: deps.config.corsOrigins }))
    .use(langPlugin())
    .use(
      authPlugin({
        findKey: (secret) => findActiveKey(keys, secret),
        protectedRoutes: [...DETECT_ROUTES, USAGE_ROUTE, LIMITS_ROUTE, ...CALIBRATION_ROUTES],
      }),
    )
    .use(
      rateLimitPlugin({
        // Reading one's own usage and limits has its own budget: it never spends a detection (issue 32).
        admit: deps.config.rateLimits ? (key, route) => admitRequest(deps.store.rates, key, readOrRequest(route)) : null,
      }),
    )
    .use(
      errorMapper({
        logger,
        usage,
        quotaHeaders: async (key) => rateLimitHeaders(await getQuotaState(quota, key)),
        routes: () => table.routes,
        metrics,
      }),
    )
    .use(observePlugin({ observe: { usage, logger, metrics }, selfObserved: [...DETECT_ROUTES, CALIBRATION_CREATE_ROUTE] }))
    .use(healthModule({ modelVersion: version, storeHealth: () => deps.store.health(), scoringHealth: scoringProbe(deps.detector) }))
    .use(metricsModule({ view, token: deps.config.metricsToken }))
    .use(docsModule())
    .use(usageModule({ quota, operation: usageOperation }))
    .use(limitsModule({ config: deps.config, operation: limitsOperation }))
    .use(webRoutes)
    .use(
      calibrationsModule({
        calibrations: deps.store.calibrations,
        quota,
        holds,
        detector: deps.detector,
        modelVersion: version,
        config: deps.config,
        pool: extractPoolFor(deps.config),
        exhausted: exhaustedFilesFor(deps.config, deps.store.rates),
        logger,
        usage,
        metrics,
        operations: calibrationOperations,
      }),
    )
    .use(
      detectModule({
        config: deps.config,
        quota,
        usage,
        detector: deps.detector,
        modelVersion: version,
        logger,
        idempotency: createIdempotency({
          store: deps.store.idempotency,
          waitMs: deps.idempotencyWaitMs,
          maxPerKey: deps.config.idempotencyMaxPerKey,
          onEvent: (event, fields) => logger.error(event, fields),
        }),
        holds,
        stopping: deps.stopping,
        streams: deps.streams,
        handleBatch: deps.handleBatch ?? createBatchHandler({ rates: deps.store.rates }),
        metrics,
        operations: { detect: detectOperation, alias: detectAliasOperation, batch: detectBatchOperation },
        findProfile: (key, id) => findProfile(deps.store.calibrations, key, id),
      }),
    );
  table.routes = app.routes;
  return app;
}

/** The app type (for tests and the batch module). */
export type App = ReturnType<typeof createApp>;
