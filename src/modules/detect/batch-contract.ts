/** The contract between POST /api/detect and batch mode (src/modules/batch, issue 5). */
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { ApiKeyRow } from '../../db/schema';
import type { Detector, LabelLang } from '../../engine/types';
import type { Logger } from '../../http/logger';

/**
 * What the detect route hands to `handleBatch` for a multipart/form-data request. The key has
 * been authenticated (onRequest) and the body has NOT been read. `handleBatch` throws ApiError for
 * request-level failures (413 payload_too_large / too_many_files, 429 quota_exceeded, ...), which
 * the error mapper turns into the JSON error body with X-RateLimit-* headers; on success it returns
 * the NDJSON Response itself, with `rateLimitHeaders(state)` from src/modules/quota, and records
 * the request with `observeRequest(deps, request, { status: 200, mode: 'batch', words })`.
 */
export interface BatchRequest {
  request: Request;
  key: ApiKeyRow;
  /** Negotiated from ?lang / Accept-Language; a `lang` form field may override it. */
  lang: LabelLang;
  config: Config;
  db: Db;
  detector: Detector;
  logger: Logger;
}

/** Signature of `handleBatch` exported by src/modules/batch/index.ts. */
export type HandleBatch = (ctx: BatchRequest) => Promise<Response>;
