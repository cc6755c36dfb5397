/**
 * The benchmark's server process: the product app from createApp() (same config, db, detector and
 * JSON logger as `ai-detector serve`) plus ONE bench-only route, POST /bench/bare, which reads and
 * parses the same JSON body and answers `{}`. detect/bare then isolates what detection adds on top
 * of HTTP + body parsing. Run by bench/http.ts; not part of the product.
 */
import { createApp } from '../src/app';
import { loadConfig, serverBodyLimit } from '../src/config';
import { startCheckpointer } from '../src/db/checkpoint';
import { openDatabase } from '../src/db/client';
import { migrateDatabase } from '../src/db/migrate';
import { createDetector } from '../src/detector';
import { createJsonLogger, parseJson, readBodyText } from '../src/http';

/** Path of the bench-only endpoint. */
export const BARE_PATH = '/bench/bare';

if (import.meta.main) {
  const config = loadConfig();
  const db = openDatabase(config.databasePath);
  migrateDatabase(db);
  const logger = createJsonLogger();
  // As in main.ts serve(): WAL checkpoints run on a worker thread, not in a request's commit.
  startCheckpointer(db, config.databasePath, { onError: (name) => logger.error('checkpointer_failed', { name }) });
  const app = createApp({ config, db, detector: await createDetector(), logger }).post(
    BARE_PATH,
    async function bare({ request }) {
      parseJson(await readBodyText(request, config.maxBodyBytes));
      return {};
    },
    { parse: 'none' },
  );
  process.on('SIGTERM', () => {
    void app.stop(true).then(() => process.exit(0));
  });
  app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: serverBodyLimit(config) });
  logger.info('listening', { port: app.server?.port ?? config.port });
}
