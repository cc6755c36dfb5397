#!/usr/bin/env bun
/** Composition root: config -> db -> migrations -> detector -> app.listen, plus subcommand dispatch. */
import { createApp } from './app';
import { keysIo, printBootstrapKey } from './cli/console';
import { runKeysCli } from './cli/keys';
import { ConfigError, loadConfig, serverBodyLimit, type Config } from './config';
import { closeDatabase, openDatabase, type Db } from './db/client';
import { startCheckpointer } from './db/checkpoint';
import { migrateDatabase } from './db/migrate';
import { createJsonLogger } from './http/logger';
import { VERSION } from './modules/health';
import { countKeys, createKey } from './modules/keys';

const HELP = `ai-detector ${VERSION}: self-hosted AI-text detection API

Usage:
  ai-detector [serve]                 start the HTTP server (default)
  ai-detector keys <command> ...      manage API keys (create|list|revoke|usage; "keys help")
  ai-detector detect FILE...|--jsonl  score files or JSON lines from the command line
  ai-detector --version | --help

Configuration comes from the environment (PORT, HOST, DATABASE_PATH, MAX_BODY_BYTES,
BOOTSTRAP_KEY, batch limits); see the README.`;

function loadConfigOrExit(): Config {
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

function openMigrated(config: Config): Db {
  const db = openDatabase(config.databasePath);
  migrateDatabase(db);
  return db;
}

/** How long in-flight requests (e.g. a batch stream) may run after SIGTERM before connections are closed. */
const SHUTDOWN_GRACE_MS = 30_000;

async function serve(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createJsonLogger();
  const db = openMigrated(config);
  const checkpointer = startCheckpointer(db, config.databasePath, {
    onError: (name) => logger.error('checkpointer_failed', { name }),
  });
  if (config.bootstrapKey && countKeys(db) === 0) printBootstrapKey(createKey(db, { plan: 'free', name: 'bootstrap' }));
  // Loaded here, not at the top: `keys` and `--help` should not pay for starting the engine.
  const { createDetector } = await import('./detector');
  const detector = await createDetector();
  const app = createApp({ config, db, detector, logger });
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
    // stop(false): refuse new connections, let in-flight requests finish.
    await app.stop(false);
    clearTimeout(force);
    checkpointer.stop();
    closeDatabase(db);
    logger.info('stopped', { signal });
    process.exit(0);
  };
  // Registered before listening, so a signal right after the "listening" line is handled.
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: serverBodyLimit(config) });
  } catch (error) {
    console.error(`Cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
    closeDatabase(db);
    process.exit(1);
  }
  logger.info('listening', {
    host: config.host,
    port: app.server?.port ?? config.port,
    version: VERSION,
    database: config.databasePath,
  });
}

/** Dispatches the command line; returns an exit code for commands that finish. */
export async function main(argv: string[]): Promise<number | undefined> {
  const [command = 'serve', ...rest] = argv;
  switch (command) {
    case '--version':
    case '-v':
      console.log(VERSION);
      return 0;
    case '--help':
    case '-h':
    case 'help':
      console.log(HELP);
      return 0;
    case 'serve':
      await serve();
      return undefined;
    case 'keys': {
      const db = openMigrated(loadConfigOrExit());
      try {
        return runKeysCli(rest, db, keysIo());
      } finally {
        closeDatabase(db);
      }
    }
    case 'detect': {
      const { runDetectCli } = await import('./cli/detect');
      return (await runDetectCli(rest)) ?? 0;
    }
    default:
      console.error(`Unknown command "${command}".\n\n${HELP}`);
      return 2;
  }
}

if (import.meta.main) {
  const code = await main(process.argv.slice(2));
  if (code !== undefined) process.exit(code);
}
