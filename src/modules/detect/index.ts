/** Detect module: POST /api/detect (JSON single mode; multipart goes to the batch handler app.ts injects). */
import { Elysia } from 'elysia';
import type { Config } from '../../config';
import type { Detector } from '../../detector/types';
import type { LabelLang } from '../../contract';
import {
  ApiError,
  isJsonType,
  isMultipartType,
  observeRequest,
  parseJson,
  readBodyText,
  requireKey,
  type Logger,
  type RequestFacts,
} from '../../http';
import type { ServiceMetrics } from '../../metrics/types';
import type { QuotaStore, UsageSink } from '../../store/types';
import { rateLimitHeaders } from '../quota';
import type { HandleBatch } from './batch-contract';
import type { DocumentDecoration } from 'elysia';
import { validateDetectBody } from './model';
import { detectText } from './service';

export { detectText, toDetectResponse } from './service';
export { MIN_WORDS } from '../../contract';
export { validateDetectBody, type DetectInput, type DetectResponse } from './model';
export { isSensitivity } from '../../contract';
export type { BatchRequest, HandleBatch } from './batch-contract';

/** Route key the auth plugin protects. */
export const DETECT_ROUTE = 'POST /api/detect';

/** Dependencies of the detect routes. */
export interface DetectModuleOptions {
  config: Config;
  quota: QuotaStore;
  usage: UsageSink;
  detector: Detector;
  logger: Logger;
  /** Multipart requests go here (src/modules/batch): injected, so detect does not import batch. */
  handleBatch: HandleBatch;
  /** Counters for GET /metrics. */
  metrics?: ServiceMetrics;
  /** How the route appears in the OpenAPI document (src/modules/docs/openapi.ts, which also documents batch mode: given by app.ts, so detect does not import batch). */
  operation?: DocumentDecoration;
}

/** The derived context the route reads and updates (plugins in src/http). */
type DetectContext = RequestFacts & { set: { headers: Record<string, unknown> }; lang: LabelLang; words: number };

/** Elysia plugin mounting POST /api/detect. The key was already checked by the auth plugin. */
export function detectModule(deps: DetectModuleOptions) {
  const { config, quota, usage, detector, logger, handleBatch, metrics, operation } = deps;
  const observe = { usage, logger, metrics };
  const onRefundEvent = (event: string, fields: Record<string, string | number>) => logger.error(event, fields);
  return new Elysia({ name: 'detect' }).post(
    '/api/detect',
    async function detect(context) {
      const ctx = context as unknown as DetectContext;
      const { request } = ctx;
      const key = requireKey(ctx.key);
      const contentType = request.headers.get('content-type');
      if (isMultipartType(contentType)) {
        return handleBatch({
          request,
          key,
          lang: ctx.lang,
          facts: ctx,
          onLang: (lang) => {
            ctx.lang = lang;
          },
          onWords: (words) => {
            ctx.words = words;
          },
          config,
          quota,
          usage,
          detector,
          logger,
          metrics,
        });
      }
      if (!isJsonType(contentType)) throw new ApiError('unsupported_media_type');
      const input = validateDetectBody(parseJson(await readBodyText(request, config.maxBodyBytes)));
      const outcome = await detectText({ quota, detector, onRefundEvent, signal: request.signal }, key, input, ctx.lang, (words) => {
        ctx.words = words;
      });
      Object.assign(ctx.set.headers, rateLimitHeaders(outcome.state));
      observeRequest(observe, ctx, { status: 200, mode: 'single', score: outcome.body.score, words: outcome.words });
      return outcome.body;
    },
    { parse: 'none', detail: operation },
  );
}
