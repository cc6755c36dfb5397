/** Health module: GET /health, no key needed; reports whether the key and quota store answers. */
import { DEFAULT_ERROR_RESPONSE } from '../../http/schema';
import { Elysia, t, type Static } from 'elysia';
import pkg from '../../../package.json';
import type { StoreHealth } from '../../store/types';
import { ModelVersionSchema } from '../detect/model';

/** Version reported by /health and --version (from package.json, embedded at build time). */
export const VERSION: string = pkg.version;

/** The 200 body of GET /health. */
export const HealthSchema = t.Object({
  status: t.Literal('ok'),
  store: t.Literal('up'),
  version: t.String({ description: 'Package version.' }),
  modelVersion: ModelVersionSchema,
});

/** The 503 body of GET /health: the process answers but its store does not take writes. */
export const DegradedHealthSchema = t.Object({
  status: t.Literal('degraded'),
  store: t.Literal('down'),
  reason: t.String({
    description:
      '`writes_failing`: the latest write failed (disk full, read-only file system, I/O error); `locked`: another process holds the SQLite write lock; `unreachable`: the store did not answer its probe.',
  }),
  code: t.String({ description: 'The driver’s code, e.g. `SQLITE_FULL`, `SQLITE_READONLY`, `SQLITE_BUSY`, `timeout`.' }),
  version: t.String({ description: 'Package version.' }),
  modelVersion: ModelVersionSchema,
});

/** Options of the health module: the loaded model's version, and how to probe the store (default: always up, for apps without one). */
export interface HealthOptions {
  modelVersion: string;
  storeHealth?: () => Promise<StoreHealth>;
}

/** Elysia plugin mounting GET /health -> 200 { status: 'ok', store: 'up', version, modelVersion } or 503 { status: 'degraded', store: 'down', reason, code, version, modelVersion }. */
export function healthModule({ modelVersion, storeHealth = async () => ({ store: 'up' }) }: HealthOptions) {
  return new Elysia({ name: 'health' }).get(
    '/health',
    async function health({ set }): Promise<Static<typeof HealthSchema> | Static<typeof DegradedHealthSchema>> {
      const state = await storeHealth();
      if (state.store === 'up') return { status: 'ok', store: 'up', version: VERSION, modelVersion };
      // Load balancers take this instance out until the store takes writes again.
      set.status = 503;
      return { status: 'degraded', store: 'down', reason: state.reason, code: state.code, version: VERSION, modelVersion };
    },
    {
      detail: {
        tags: ['Service'],
        summary: 'Liveness check',
        description: 'Answers without an API key.',
        security: [],
        responses: {
          200: {
            description: 'The service is up and its store answers.',
            content: {
              'application/json': {
                schema: HealthSchema,
                example: { status: 'ok', store: 'up', version: VERSION, modelVersion },
              },
            },
          },
          503: {
            description:
              'The process is up but its store fails writes, is locked or is unreachable: detection requests get 503 store_unavailable.',
            content: {
              'application/json': {
                schema: DegradedHealthSchema,
                example: {
                  status: 'degraded',
                  store: 'down',
                  reason: 'writes_failing',
                  code: 'SQLITE_FULL',
                  version: VERSION,
                  modelVersion,
                },
              },
            },
          },
          // 404/405/500, documented once in the docs module's components (src/modules/docs/openapi.ts).
          default: DEFAULT_ERROR_RESPONSE,
        },
      },
    },
  );
}
