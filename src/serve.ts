/**
 * `serve`: config -> store (migrated) -> detector -> app.listen, graceful shutdown, and (WORKERS > 1)
 * the worker processes that share the port (src/cluster.ts).
 */
import { createApp, type App } from './app';
import { keysCommandLine, printBootstrapKey, printStartBanner, serviceUrl } from './cli/console';
import { isWorkerProcess, primaryChannel, startWorkers, watchPrimary, type WorkerSet } from './cluster';
import { ConfigError, loadConfig, serverBodyLimit, type Config } from './config';
import { createJsonLogger, type Logger } from './http/logger';
import { createOpenStreams } from './http/open-streams';
import { serveView } from './metrics/cluster';
import { createProcessMetrics } from './metrics/registry';
import { extractPoolFor } from './modules/batch';
import { createHolds } from './modules/quota';
import { startMemoryGovernor } from './memory-governor';
import { VERSION } from './modules/health';
import { createKey, type CreatedKey } from './modules/keys';
import { startUsageRetention } from './modules/usage';
import { assertPortFree, claimPort, PortTakenError } from './port-claim';
import { ConnectionDrain, gracefulStop } from './shutdown';
import { onceAcrossInstances, openStore, StoreOpenError, type Store, type StoreOptions } from './store';

/** Longest a stopping process waits for its charge settlements before it closes the store (their holds' leases cover the rest). */
const SETTLE_WAIT_MS = 3_000;

/** Loads the environment configuration, or prints what is wrong and exits 1. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

/** Opens the configured store (SQLite or PostgreSQL), or prints one line saying where, why and what to do, and exits 1. */
export async function openStoreOrExit(config: Config, options: Omit<StoreOptions, 'timeoutMs'> = {}): Promise<Store> {
  try {
    return await openStore(config, options);
  } catch (error) {
    if (error instanceof StoreOpenError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** Store trouble handled in the background (a failed usage write, a dropped event) goes to the JSON log. */
function storeEvents(logger: Logger): StoreOptions['onEvent'] {
  return (event, fields) => (event.endsWith('_recovered') ? logger.info(event, fields) : logger.error(event, fields));
}

/** First start with no key at all: create a free one (once across instances sharing a PostgreSQL); printed once listening. */
async function bootstrapKey(store: Store): Promise<CreatedKey | null> {
  let created: CreatedKey | null = null;
  await onceAcrossInstances(store, async () => {
    if ((await store.keys.count()) === 0) created = await createKey(store.keys, { plan: 'free', name: 'bootstrap' });
  });
  return created;
}

/** Prints `message` and exits 1: the port cannot be had (taken, or an address this machine lacks). */
function exitCannotListen(config: Config, error: unknown): never {
  const message =
    error instanceof PortTakenError
      ? `Cannot start: ${error.message}`
      : `Cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`;
  console.error(message);
  process.exit(1);
}

/** Options of serve(). */
export interface ServeOptions {
  /** Mounts extra routes after the product's (the benchmark's bare endpoint); runs in workers too. */
  extraRoutes?: (app: App) => void;
}

/** Runs the HTTP server until SIGTERM/SIGINT; as the primary, or as a worker when WORKER_ENV is set. */
export async function serve(options: ServeOptions = {}): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createJsonLogger();
  const isWorker = isWorkerProcess();
  // Before the store is touched: a second instance on a taken port must not migrate or create keys.
  if (!isWorker) {
    try {
      // Held until this process exits (the kernel drops it then, however the process ends).
      claimPort(config.host, config.port);
    } catch (error) {
      exitCannotListen(config, error);
    }
  }
  // The primary migrates (once, before any worker opens the store) and owns the SQLite checkpoints and the bootstrap key.
  const store = await openStoreOrExit(config, {
    migrate: !isWorker,
    checkpoints: isWorker ? 'primary' : 'own',
    onEvent: storeEvents(logger),
  });
  const created = !isWorker && config.bootstrapKey ? await bootstrapKey(store) : null;
  // Loaded here, not at the top: `keys` and `--help` should not pay for starting the engine.
  const { createDetector } = await import('./detector');
  const detector = await createDetector({ maxTextChars: config.maxTextChars });
  // One registry per process; GET /metrics on any of them shows every process (src/metrics/cluster.ts).
  const { registry, metrics } = createProcessMetrics({ extractionQueue: () => extractPoolFor(config).pending });
  const { view, primary: primaryMetrics } = serveView(registry, primaryChannel());
  // SIGTERM aborts it: batch streams end early with a complete line naming the files not processed.
  const stopStreams = new AbortController();
  // The batch streams still writing: the stop waits for their last lines (src/http/open-streams.ts).
  const streams = createOpenStreams();
  const holds = createHolds({
    quota: store.quota,
    ledger: store.ledger,
    onEvent: (event, fields) => logger.error(event, fields),
    leaseMs: config.holdLeaseMs,
    clock: () => Date.now() + config.clockOffsetMs,
  });
  const app = createApp({ config, store, detector, logger, metrics: { metrics, view }, holds, stopping: stopStreams.signal, streams });
  options.extraRoutes?.(app);
  // Usage events past USAGE_RETENTION_DAYS folded into monthly totals: at start, then hourly (the primary's job).
  const stopRetention = isWorker
    ? () => {}
    : startUsageRetention({
        usage: store.usage,
        days: config.usageRetentionDays,
        onEvent: (event, fields) => (event === 'usage_compacted' ? logger.info(event, fields) : logger.error(event, fields)),
      });
  // Collects late garbage above half of MEMORY_LIMIT_MB (src/memory-governor.ts has the measurements).
  const governor = startMemoryGovernor({ softLimitBytes: (config.memoryLimitMb * 2 ** 20) / 2, logger });
  // While stopping, every answer says `Connection: close` (src/shutdown).
  const drain = new ConnectionDrain();
  app.use(drain.plugin());
  let workers: WorkerSet | null = null;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      // A worker gets SIGTERM twice when the whole group is signalled (systemd's default
      // KillMode=control-group): from the service manager and from its primary. It is stopping
      // already; exiting at once cut its batch streams mid-line (issue 29). The primary decides.
      if (isWorker) return;
      // A second signal means "now": do not wait for long-running batch streams.
      logger.warn('forced_exit', { signal });
      process.exit(1);
    }
    stopping = true;
    logger.info('shutting_down', { signal });
    // Batch streams stop scoring now (after the file being scored) and say which files they did not
    // process: the grace period is left for their last lines to reach the clients. Scoring 5 s more
    // at a slow client's pace left those lines still on their way when it ended (issue 33).
    stopStreams.abort();
    // Refuse new connections, let in-flight requests finish, answer kept-alive connections once more
    // with `Connection: close`, then close (here and in every worker); past the grace period, close what is left.
    // The workers are signalled first, so that every process closes its listening socket before any client is sent away.
    const workersStopped = workers?.stop('SIGTERM');
    const outcome = app.server
      ? await gracefulStop(app.server, { drain, graceMs: config.shutdownGraceMs, openStreams: () => streams.count })
      : undefined;
    await workersStopped;
    governor.stop();
    stopRetention();
    // What the stopped streams did not deliver goes back before the store closes.
    await Promise.race([holds.settled(), Bun.sleep(SETTLE_WAIT_MS)]);
    holds.stop();
    await store.close();
    logger.info('stopped', { signal, ...outcome });
    process.exit(0);
  };
  // Registered before listening, so a signal right after the "listening" line is handled.
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // Ctrl-C reaches the whole process group; a worker waits for its primary's SIGTERM instead.
  process.on('SIGINT', () => void (isWorker ? undefined : shutdown('SIGINT')));

  try {
    // Checked again right before binding: the claim keeps other instances out, not other programs.
    if (!isWorker) assertPortFree(config.host, config.port);
    // SO_REUSEPORT only when the service's own workers share the port (Elysia turns it on by default);
    // a worker's own config says WORKERS=1, so being a worker counts too.
    const reusePort = isWorker || config.workers > 1;
    app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: serverBodyLimit(config), reusePort });
  } catch (error) {
    await store.close();
    exitCannotListen(config, error);
  }
  const port = app.server?.port ?? config.port;
  if (isWorker) {
    watchPrimary(() => void shutdown('primary_gone'));
    logger.info('worker_listening', { port });
    return;
  }
  // Before the "listening" line, so whoever waits for it has the key already.
  const url = serviceUrl(config.host, port);
  const keysCommand = keysCommandLine();
  if (created) printBootstrapKey(created, url, keysCommand);
  printStartBanner({
    version: VERSION,
    url,
    host: config.host,
    workers: config.workers,
    store: `${store.dialect} ${store.location}`,
    keysCommand,
  });
  logger.info('listening', {
    host: config.host,
    port,
    version: VERSION,
    store: store.dialect,
    database: store.location,
    workers: config.workers,
  });
  if (config.workers > 1) {
    workers = startWorkers({
      count: config.workers - 1,
      port,
      logger,
      onMessage: (message, pid) => primaryMetrics?.onMessage(message, pid),
      onExit: (pid) => void primaryMetrics?.onExit(pid),
    });
    primaryMetrics?.attach(workers);
  }
}
