/** Health module: GET /health, no key needed; reports whether the key and quota store answers and detections can be scored. */
import { DEFAULT_ERROR_RESPONSE } from '../../http/schema';
import { Elysia, t, type Static } from 'elysia';
import pkg from '../../../package.json';
import type { StoreHealth } from '../../store/types';
import { ModelVersionSchema } from '../detect/model';
import type { ScoringHealth } from './scoring';

export { SCORING_PROBE_TTL_MS, scoringProbe, type ScoringHealth } from './scoring';

/** Version reported by /health and --version (from package.json, embedded at build time). */
export const VERSION: string = pkg.version;

/** The 200 body of GET /health. */
export const HealthSchema = t.Object({
  status: t.Literal('ok'),
  store: t.Literal('up'),
  scoring: t.Literal('up'),
  version: t.String({ description: 'Package version.' }),
  modelVersion: ModelVersionSchema,
});

/** The 503 body of GET /health: the process answers but its store does not take writes, or it cannot score a text. */
export const DegradedHealthSchema = t.Object({
  status: t.Literal('degraded'),
  store: t.Union([t.Literal('up'), t.Literal('down')]),
  scoring: t.Union([t.Literal('up'), t.Literal('down')], {
    description: '`down`: scoring a known text failed (checked at most once a second): detections answer 500 meanwhile.',
  }),
  reason: t.String({
    description:
      'The store’s first: `writes_failing`: the latest write failed (disk full, read-only file system, I/O error); `locked`: another process holds the SQLite write lock; `unreachable`: the store did not answer its probe. Then `scoring_failing`: the detection engine failed and could not be rebuilt.',
  }),
  code: t.String({
    description:
      'The driver’s code, e.g. `SQLITE_FULL`, `SQLITE_READONLY`, `SQLITE_BUSY`, `timeout`; for scoring, the error’s name (e.g. `CoreUnavailableError`).',
  }),
  version: t.String({ description: 'Package version.' }),
  modelVersion: ModelVersionSchema,
});

/**
 * Options of the health module: the loaded model's version, how to probe the store, and whether
 * detections can be scored (scoringProbe; both default to up, for apps without a store or detector).
 */
export interface HealthOptions {
  modelVersion: string;
  storeHealth?: () => Promise<StoreHealth>;
  scoringHealth?: () => ScoringHealth;
}

/**
 * Elysia plugin mounting GET /health -> 200 { status: 'ok', store: 'up', scoring: 'up', version, modelVersion }
 * or 503 { status: 'degraded', store, scoring, reason, code, version, modelVersion }.
 */
export function healthModule({
  modelVersion,
  storeHealth = async () => ({ store: 'up' }),
  scoringHealth = () => ({ scoring: 'up' }),
}: HealthOptions) {
  return new Elysia({ name: 'health' }).get(
    '/health',
    async function health({ set }): Promise<Static<typeof HealthSchema> | Static<typeof DegradedHealthSchema>> {
      const state = await storeHealth();
      const scoring = scoringHealth();
      if (state.store === 'up' && scoring.scoring === 'up')
        return { status: 'ok', store: 'up', scoring: 'up', version: VERSION, modelVersion };
      // Load balancers take this instance out until the store takes writes and texts can be scored again.
      set.status = 503;
      const failed = state.store === 'down' ? state : (scoring as ScoringHealth & { scoring: 'down' });
      return {
        status: 'degraded',
        store: state.store,
        scoring: scoring.scoring,
        reason: failed.reason,
        code: failed.code,
        version: VERSION,
        modelVersion,
      };
    },
    {
      detail: {
        tags: ['Service'],
        summary: 'Liveness check',
        description: 'Answers without an API key.',
        security: [],
        responses: {
          200: {
            description: 'The service is up, its store answers and it scores a known text.',
            content: {
              'application/json': {
                schema: HealthSchema,
                example: { status: 'ok', store: 'up', scoring: 'up', version: VERSION, modelVersion },
              },
            },
          },
          503: {
            description:
              'The process is up but its store fails writes, is locked or is unreachable (detection requests get 503 store_unavailable), or it cannot score a text (they get 500 internal_error).',
            content: {
              'application/json': {
                schema: DegradedHealthSchema,
                example: {
                  status: 'degraded',
                  store: 'down',
                  scoring: 'up',
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
