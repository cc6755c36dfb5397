/** Usage module: GET /v1/usage, what a key has used and has left (key required, never charged). */
import { Elysia } from 'elysia';
import { requireKey } from '../../http';
import type { ApiKey, QuotaStore } from '../../store/types';
import { CONTENT_LANGUAGE, DEFAULT_ERROR_RESPONSE, errorResponse, RATE_LIMIT_HEADERS } from '../detect/openapi';
import { rateLimitHeaders } from '../quota';
import { UsageSchema } from './model';
import { usageReport } from './service';

export { UsageSchema, type Usage } from './model';
export { usageReport, type UsageReport } from './service';

/** The path of the usage report. */
export const USAGE_PATH = '/v1/usage';
/** Route key the auth plugin protects. */
export const USAGE_ROUTE = `GET ${USAGE_PATH}`;

/** Component schemas of the usage report, by name (the docs module adds them to the document). */
export const USAGE_SCHEMAS = { Usage: UsageSchema };

/** Options of the usage module. */
export interface UsageModuleOptions {
  quota: QuotaStore;
}

const usageOperation = {
  operationId: 'usage',
  tags: ['Account'],
  summary: 'Words and calls used and left',
  description:
    'The key’s plan, the current quota period (a UTC calendar month), words used and left, successful calls this period and, for trial keys, lifetime calls left. ' +
    'Not charged. The numbers are those of the X-RateLimit-* headers, which this answer carries too.',
  security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
  responses: {
    200: {
      description: 'The key’s usage.',
      headers: { ...RATE_LIMIT_HEADERS, ...CONTENT_LANGUAGE },
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Usage' },
          example: {
            plan: 'free',
            period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
            words: { limit: 10000, used: 175, remaining: 9825 },
            calls: { used: 1 },
            trial: null,
          },
        },
      },
    },
    401: errorResponse(['missing_api_key', 'invalid_api_key'], 'No key, or an unknown or revoked key.'),
    503: errorResponse(['store_unavailable'], 'The key and quota store is locked or unreachable.', {
      'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
    }),
    default: DEFAULT_ERROR_RESPONSE,
  },
};

/** Elysia plugin mounting GET /v1/usage. The key was already checked by the auth plugin. */
export function usageModule({ quota }: UsageModuleOptions) {
  return new Elysia({ name: 'usage' }).get(
    USAGE_PATH,
    async function usage(context) {
      const { key, set } = context as unknown as { key: ApiKey | null; set: { headers: Record<string, string> } };
      const report = await usageReport(quota, requireKey(key));
      Object.assign(set.headers, rateLimitHeaders(report.state), { 'cache-control': 'no-store' });
      return report.body;
    },
    // TypeBox schemas are plain JSON Schema; the OpenAPI typings do not know TypeBox's types.
    { detail: usageOperation as never },
  );
}
