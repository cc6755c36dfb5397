/** Usage module: GET /v1/usage, what a key has used and has left (key required, never charged). */
import { Elysia } from 'elysia';
import { requireKey } from '../../http';
import type { ApiKey, QuotaStore } from '../../store/types';
import { rateLimitHeaders } from '../quota';
import { UsageSchema } from './model';
import { usageReport } from './service';

export { UsageSchema, type Usage } from './model';
export { usageReport, type UsageReport } from './service';
export { compactUsage, RETENTION_EVERY_MS, startUsageRetention, type UsageRetentionOptions } from './retention';

/** The path of the usage report. */
export const USAGE_PATH = '/v1/usage';
/** Route key the auth plugin protects. */
export const USAGE_ROUTE = `GET ${USAGE_PATH}`;

/** Component schemas of the usage report, by name (the docs module adds them to the document). */
export const USAGE_SCHEMAS = { Usage: UsageSchema };

/** Options of the usage module. */
export interface UsageModuleOptions {
  quota: QuotaStore;
  /** How the route appears in the OpenAPI document (src/modules/docs/openapi.ts: given by app.ts, so usage does not import docs). */
  operation?: object;
}

/** Elysia plugin mounting GET /v1/usage. The key was already checked by the auth plugin. */
export function usageModule({ quota, operation }: UsageModuleOptions) {
  return new Elysia({ name: 'usage' }).get(
    USAGE_PATH,
    async function usage(context) {
      const { key, set } = context as unknown as { key: ApiKey | null; set: { headers: Record<string, string> } };
      const report = await usageReport(quota, requireKey(key));
      Object.assign(set.headers, rateLimitHeaders(report.state), { 'cache-control': 'no-store' });
      return report.body;
    },
    // TypeBox schemas are plain JSON Schema; the OpenAPI typings do not know TypeBox's types.
    { detail: operation as never },
  );
}
