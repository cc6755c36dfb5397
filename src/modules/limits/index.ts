/** Limits module: GET /v1/limits, what this server and the key's plan allow (key required, never charged). */
import { Elysia } from 'elysia';
import type { Config } from '../../config';
import { requireKey } from '../../http';
import type { ApiKey } from '../../store/types';
import { LimitsSchema } from './model';
import { limitsOf } from './service';

export { LimitsSchema, type Limits } from './model';
export { limitsOf } from './service';

/** The path of the limits report. */
export const LIMITS_PATH = '/v1/limits';
/** Route key the auth plugin protects. */
export const LIMITS_ROUTE = `GET ${LIMITS_PATH}`;

/** Component schemas of the limits report, by name (the docs module adds them to the document). */
export const LIMITS_SCHEMAS = { Limits: LimitsSchema };

/** Options of the limits module. */
export interface LimitsModuleOptions {
  config: Config;
  /** How the route appears in the OpenAPI document (given by app.ts, so limits does not import docs). */
  operation?: object;
}

/** Elysia plugin mounting GET /v1/limits. The key was already checked by the auth plugin. */
export function limitsModule({ config, operation }: LimitsModuleOptions) {
  return new Elysia({ name: 'limits' }).get(
    LIMITS_PATH,
    function limits(context) {
      const { key, set } = context as unknown as { key: ApiKey | null; set: { headers: Record<string, string> } };
      set.headers['cache-control'] = 'no-store';
      return limitsOf(config, requireKey(key));
    },
    { detail: operation as never },
  );
}
