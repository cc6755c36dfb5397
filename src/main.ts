#!/usr/bin/env bun
/** Command-line entry: dispatches `serve` (default), `keys`, `detect`, `calibrate`, `--version` and `--help`. */
import { keysIo } from './cli/console';
import { missingDatabase, runKeysCli } from './cli/keys';
import type { Store } from './store';
import { VERSION } from './modules/health';
import { loadConfigOrExit, openStoreOrExit, serve } from './serve';

const HELP = `ai-detector ${VERSION}: self-hosted AI-text detection API

Usage:
  ai-detector [serve]                 start the HTTP server (default)
  ai-detector keys <command> ...      manage API keys (create|list|revoke|usage; "keys help")
  ai-detector detect FILE...|--jsonl  score files or JSON lines from the command line
  ai-detector calibrate --out FILE    a calibration profile from known-human texts ("calibrate --help")
  ai-detector --version | --help

Configuration comes from the environment (PORT, HOST, DATABASE_PATH or DATABASE_URL,
MAX_BODY_BYTES, BOOTSTRAP_KEY, WORKERS, CORS_ORIGINS, METRICS_TOKEN, batch limits); see the README.`;

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
      const config = loadConfigOrExit();
      const missing = missingDatabase(rest[0], config);
      if (missing) {
        console.error(missing);
        return 1;
      }
      // Opened only by a command that needs it: `keys help` creates no database either.
      let store: Store | null = null;
      try {
        return await runKeysCli(rest, async () => (store ??= await openStoreOrExit(config)), keysIo());
      } finally {
        await (store as Store | null)?.close();
      }
    }
    case 'detect': {
      const { runDetectCli } = await import('./cli/detect');
      return (await runDetectCli(rest)) ?? 0;
    }
    case 'calibrate': {
      const { runCalibrateCli } = await import('./cli/calibrate');
      // The --key-id mode's store hook (saveForKey) is wired here by the store side of issue 34.
      return await runCalibrateCli(rest);
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
