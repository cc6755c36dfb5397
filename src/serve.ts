/**
 * `serve`: config -> db -> migrations -> detector -> app.listen, graceful shutdown, and (WORKERS > 1)
 * the worker processes that share the port (src/cluster.ts).
 */
import { createApp, type App } from './app';
import { printBootstrapKey } from './cli/console';
import { isWorkerProcess, startWorkers, watchPrimary, type WorkerSet } from './cluster';
import { ConfigError, loadConfig, serverBodyLimit, type Config } from './config';
import { leaveCheckpointsToPrimary, startCheckpointer } from './db/checkpoint';
import { closeDatabase, openDatabase, type Db } from './db/client';
import { migrateDatabase } from './db/migrate';
import { createJsonLogger } from './http/logger';
import { startMemoryGovernor } from './memory-governor';
import { VERSION } from './modules/health';
import { countKeys, createKey } from './modules/keys';

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

/** Opens the configured database and applies pending migrations. */
export function openMigrated(config: Config): Db {
  const db = openDatabase(config.databasePath);
  migrateDatabase(db);
  return db;
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
  // The primary migrates (once, before any worker opens the file) and owns the checkpoints and the bootstrap key.
  const db = isWorker ? openDatabase(config.databasePath) : openMigrated(config);
  const checkpointer = isWorker
    ? leaveCheckpointsToPrimary(db)
    : startCheckpointer(db, config.databasePath, { onError: (name) => logger.error('checkpointer_failed', { name }) });
  if (!isWorker && config.bootstrapKey && countKeys(db) === 0) printBootstrapKey(createKey(db, { plan: 'free', name: 'bootstrap' }));
  // Loaded here, not at the top: `keys` and `--help` should not pay for starting the engine.
  const { createDetector } = await import('./detector');
  const detector = await createDetector();
  const app = createApp({ config, db, detector, logger });
  options.extraRoutes?.(app);
  // Collects late garbage above half of MEMORY_LIMIT_MB (src/memory-governor.ts has the measurements).
  const governor = startMemoryGovernor({ softLimitBytes: (config.memoryLimitMb * 2 ** 20) / 2, logger });
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
    // Past the grace period, close what is still open rather than hang a deploy.
    const force = setTimeout(() => void app.stop(true), SHUTDOWN_GRACE_MS);
    force.unref();
    // stop(false): refuse new connections, let in-flight requests finish (here and in every worker).
    await Promise.all([app.stop(false), workers?.stop('SIGTERM')]);
    clearTimeout(force);
    checkpointer.stop();
    governor.stop();
    closeDatabase(db);
    logger.info('stopped', { signal });
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
    closeDatabase(db);
    process.exit(1);
  }
  const port = app.server?.port ?? config.port;
  if (isWorker) {
    watchPrimary(() => void shutdown('primary_gone'));
    logger.info('worker_listening', { port });
    return;
  }
  logger.info('listening', { host: config.host, port, version: VERSION, database: config.databasePath, workers: config.workers });
  if (config.workers > 1) workers = startWorkers({ count: config.workers - 1, port, logger });
}
