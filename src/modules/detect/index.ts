/** Detect module: POST /api/detect (JSON single mode; multipart goes to the batch handler app.ts injects). */
import { Elysia } from 'elysia';
import type { Config } from '../../config';
import type { Detector, LabelLang } from '../../engine/types';
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
import { detectAliasOperation, detectOperation } from './openapi';
import { validateDetectBody } from './model';
import { detectText } from './service';

export { MIN_WORDS, detectText, toDetectResponse } from './service';
export { isSensitivity, validateDetectBody, type DetectInput, type DetectResponse } from './model';
export type { BatchRequest, HandleBatch } from './batch-contract';

/** The versioned path of detection (issue 22): the contract integrators build on. */
export const DETECT_PATH = '/v1/detect';
/** The seed's path, kept as an alias of DETECT_PATH: the same handler and contract. */
export const DETECT_ALIAS_PATH = '/api/detect';
/** Route keys ("METHOD /path") the auth plugin protects and whose handler observes itself. */
export const DETECT_ROUTES = [`POST ${DETECT_PATH}`, `POST ${DETECT_ALIAS_PATH}`] as const;

/** Dependencies of the detect routes. */
export interface DetectModuleOptions {
  config: Config;
  quota: QuotaStore;
  usage: UsageSink;
  detector: Detector;
  /** The loaded model's version, put in every result. */
  modelVersion: string;
  logger: Logger;
  /** Multipart requests go here (src/modules/batch): injected, so detect does not import batch. */
  handleBatch: HandleBatch;
  /** Counters for GET /metrics. */
  metrics?: ServiceMetrics;
}

/** The derived context the route reads and updates (plugins in src/http). */
type DetectContext = RequestFacts & { set: { headers: Record<string, unknown> }; lang: LabelLang; words: number };

/** Elysia plugin mounting POST /v1/detect and its alias POST /api/detect. The key was already checked by the auth plugin. */
export function detectModule(deps: DetectModuleOptions) {
  const { config, quota, usage, detector, modelVersion, logger, handleBatch, metrics } = deps;
  const observe = { usage, logger, metrics };
  const onRefundEvent = (event: string, fields: Record<string, string | number>) => logger.error(event, fields);
  const detect = async function detect(context: unknown) {
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
        modelVersion,
        logger,
        metrics,
      });
    }
    if (!isJsonType(contentType)) throw new ApiError('unsupported_media_type');
    const input = validateDetectBody(parseJson(await readBodyText(request, config.maxBodyBytes)));
    const outcome = await detectText(
      { quota, detector, modelVersion, onRefundEvent, signal: request.signal },
      key,
      input,
      ctx.lang,
      (words) => {
        ctx.words = words;
      },
    );
    Object.assign(ctx.set.headers, rateLimitHeaders(outcome.state));
    observeRequest(observe, ctx, { status: 200, mode: 'single', score: outcome.body.score, words: outcome.words });
    return outcome.body;
  };
  return new Elysia({ name: 'detect' })
    .post(DETECT_PATH, detect, { parse: 'none', detail: detectOperation })
    .post(DETECT_ALIAS_PATH, detect, { parse: 'none', detail: detectAliasOperation });
}
