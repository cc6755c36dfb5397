/** createApp(deps): mounts the modules on one Elysia app with one error mapper. No globals. */
import { Elysia } from 'elysia';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Detector } from './engine/types';
import type { RouteEntry } from './http/routes';
import { authPlugin, errorMapper, langPlugin, silentLogger, type Logger } from './http';
import { DETECT_ROUTE, detectModule } from './modules/detect';
import { docsModule } from './modules/docs';
import { healthModule } from './modules/health';
import { webRoutes } from './modules/web';

/** Everything the app needs, injected by main.ts (or by a test). */
export interface AppDeps {
  config: Config;
  db: Db;
  detector: Detector;
  logger?: Logger;
}

/** Builds the HTTP app. Hook order matters: language first (so even a 401 is localized), then the key check. */
export function createApp(deps: AppDeps) {
  const logger = deps.logger ?? silentLogger;
  const { db } = deps;
  // The mapper reads the route table lazily (after every module is mounted) to answer 405.
  const table: { routes: readonly RouteEntry[] } = { routes: [] };
  const app = new Elysia()
    .use(langPlugin())
    .use(authPlugin({ db, protectedRoutes: [DETECT_ROUTE] }))
    .use(errorMapper({ db, logger, routes: () => table.routes }))
    .use(healthModule())
    .use(docsModule())
    .use(webRoutes)
    .use(detectModule({ config: deps.config, db, detector: deps.detector, logger }));
  table.routes = app.routes;
  return app;
}

/** The app type (for tests and the batch module). */
export type App = ReturnType<typeof createApp>;
