/** Detect module: POST /api/detect (JSON single mode; multipart goes to batch mode). */
import { Elysia } from 'elysia';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Detector } from '../../engine/types';
import {
  ApiError,
  contextOf,
  isJsonType,
  isMultipartType,
  observeRequest,
  parseJson,
  readBodyText,
  requireKey,
  type Logger,
} from '../../http';
import { handleBatch } from '../batch';
import { rateLimitHeaders } from '../quota';
import { detectOperation } from './openapi';
import { validateDetectBody } from './model';
import { detectText } from './service';

export { MIN_WORDS, detectText, toDetectResponse } from './service';
export { isSensitivity, validateDetectBody, type DetectInput, type DetectResponse } from './model';

/** Route key the auth plugin protects. */
export const DETECT_ROUTE = 'POST /api/detect';

/** Dependencies of the detect routes. */
export interface DetectModuleOptions {
  config: Config;
  db: Db;
  detector: Detector;
  logger: Logger;
}

/** Elysia plugin mounting POST /api/detect. The key was already checked in onRequest. */
export function detectModule(deps: DetectModuleOptions) {
  return new Elysia({ name: 'detect' }).post(
    '/api/detect',
    async function detect({ request, set }) {
      const ctx = contextOf(request);
      const key = requireKey(request);
      const contentType = request.headers.get('content-type');
      if (isMultipartType(contentType)) {
        return handleBatch({ request, key, lang: ctx.lang, config: deps.config, db: deps.db, detector: deps.detector, logger: deps.logger });
      }
      if (!isJsonType(contentType)) throw new ApiError('unsupported_media_type');
      const input = validateDetectBody(parseJson(await readBodyText(request, deps.config.maxBodyBytes)));
      const outcome = await detectText(deps, key, input, ctx.lang, (words) => {
        ctx.words = words;
      });
      Object.assign(set.headers, rateLimitHeaders(outcome.state));
      observeRequest(deps, request, { status: 200, score: outcome.body.score, words: outcome.words });
      return outcome.body;
    },
    { parse: 'none', detail: detectOperation },
  );
}
