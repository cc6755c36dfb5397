/**
 * The benchmark's server process: the product's `serve` (same config, db, detector, JSON logger,
 * WORKERS processes) plus ONE bench-only route, POST /bench/bare, which reads and parses the same
 * JSON body and answers `{}`. detect/bare then isolates what detection adds on top of HTTP + body
 * parsing. Run by bench/http.ts (workers re-run this file); not part of the product.
 */
import { loadConfig } from '../src/config';
import { parseJson, readBodyText } from '../src/http';
import { serve } from '../src/serve';

/** Path of the bench-only endpoint. */
export const BARE_PATH = '/bench/bare';

if (import.meta.main) {
  const { maxBodyBytes } = loadConfig();
  await serve({
    extraRoutes: (app) =>
      app.post(
        BARE_PATH,
        async function bare({ request }) {
          parseJson(await readBodyText(request, maxBodyBytes));
          return {};
        },
        { parse: 'none' },
      ),
  });
}
