/**
 * `serve`: config -> store (migrated) -> detector -> app.listen, graceful shutdown, and (WORKERS > 1)
 * the worker processes that share the port (src/cluster.ts).
 */
import { createApp, type App } from './app';
import { printBootstrapKey } from './cli/console';
import { isWorkerProcess, startWorkers, watchPrimary, type WorkerSet } from './cluster';
import { ConfigError, loadConfig, serverBodyLimit, type Config } from './config';
import { createJsonLogger, type Logger } from './http/logger';
import { VERSION } from './modules/health';
import { createKey } from './modules/keys';
import { ConnectionDrain, gracefulStop } from './shutdown';
import { onceAcrossInstances, openStore, StoreOpenError, type Store, type StoreOptions } from './store';

/** How long in-flight requests (e.g. a batch stream) may run after SIGTERM before connections are closed. */
const SHUTDOWN_GRACE_MS = 30_000;

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

/** First start with no key at all: create and print a free one (once across instances sharing a PostgreSQL). */
async function bootstrapKey(store: Store): Promise<void> {
  await onceAcrossInstances(store, async () => {
    if ((await store.keys.count()) === 0) printBootstrapKey(await createKey(store.keys, { plan: 'free', name: 'bootstrap' }));
  });
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
  // The primary migrates (once, before any worker opens the store) and owns the SQLite checkpoints and the bootstrap key.
  const store = await openStoreOrExit(config, {
    migrate: !isWorker,
    checkpoints: isWorker ? 'primary' : 'own',
    onEvent: storeEvents(logger),
  });
  if (!isWorker && config.bootstrapKey) await bootstrapKey(store);
  // Loaded here, not at the top: `keys` and `--help` should not pay for starting the engine.
  const { createDetector } = await import('./detector');
  const detector = await createDetector();
  const app = createApp({ config, store, detector, logger });
  options.extraRoutes?.(app);
  // While stopping, every answer says `Connection: close` (src/shutdown).
  const drain = new ConnectionDrain();
  app.use(drain.plugin());
  let workers: WorkerSet | null = null;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      // A second signal means "now": do not wait for long-running batch streams.
      logger.warn('forced_exit', { signal });
      process.exit(1);
    }
    stopping = true;
    logger.info('shutting_down', { signal });
    // Refuse new connections, let in-flight requests finish, answer kept-alive connections once more
    // with `Connection: close`, then close (here and in every worker); past the grace period, close what is left.
    // The workers are signalled first, so that every process closes its listening socket before any client is sent away.
    const workersStopped = workers?.stop('SIGTERM');
    const outcome = app.server ? await gracefulStop(app.server, { drain, graceMs: SHUTDOWN_GRACE_MS }) : undefined;
    await workersStopped;
    await store.close();
    logger.info('stopped', { signal, ...outcome });
    process.exit(0);
  };
  // Registered before listening, so a signal right after the "listening" line is handled.
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // Ctrl-C reaches the whole process group; a worker waits for its primary's SIGTERM instead.
  process.on('SIGINT', () => void (isWorker ? undefined : shutdown('SIGINT')));

  try {
    app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: serverBodyLimit(config) });
  } catch (error) {
    console.error(`Cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
    await store.close();
    process.exit(1);
  }
  const port = app.server?.port ?? config.port;
  if (isWorker) {
    watchPrimary(() => void shutdown('primary_gone'));
    logger.info('worker_listening', { port });
    return;
  }
  logger.info('listening', { host: config.host, port, version: VERSION, store: store.dialect, database: store.location, workers: config.workers });
  if (config.workers > 1) workers = startWorkers({ count: config.workers - 1, port, logger });
}
