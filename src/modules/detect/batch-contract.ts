/** The contract between POST /api/detect and batch mode (src/modules/batch, issue 5). */
import type { Config } from '../../config';
import type { CalibrationProfile, Detector } from '../../detector/types';
import type { LabelLang } from '../../contract';
import type { Logger } from '../../http/logger';
import type { RequestFacts } from '../../http/observe';
import type { ServiceMetrics } from '../../metrics/types';
import type { ApiKey, QuotaStore, UsageSink } from '../../store/types';
import type { Holds } from '../quota';

/**
 * What the detect route hands to `handleBatch` for a multipart/form-data request. The key has
 * been authenticated and the body has NOT been read. `handleBatch` throws ApiError for
 * request-level failures (413 payload_too_large / too_many_files, 429 quota_exceeded, ...), which
 * the error mapper turns into the JSON error body with X-RateLimit-* headers; on success it returns
 * the NDJSON Response itself, with `rateLimitHeaders(state)` from src/modules/quota, and records
 * the request with `observeRequest({ usage, logger }, facts, { status: 200, mode: 'batch', words })`.
 */
export interface BatchRequest {
  request: Request;
  key: ApiKey;
  /** Negotiated from ?lang / Accept-Language; a `lang` form field may override it. */
  lang: LabelLang;
  /** The request as observeRequest needs it (Elysia's derived context). */
  facts: RequestFacts;
  /** Tells the request the language the batch settled on, so an error answer uses it too. */
  onLang(lang: LabelLang): void;
  /** Tells the request how many words were counted, for the log line of an error answer. */
  onWords(words: number): void;
  config: Config;
  quota: QuotaStore;
  /** Where the batch's charge is held while its results are delivered (issue 29). */
  holds: Holds;
  /** Aborted when the server begins to stop (SIGTERM): the stream ends early, saying which files it did not process. */
  stopping?: AbortSignal;
  /** A keyed request's hold: the idempotency record's id, kept until the record expires, so a retry credits what it paid. */
  hold?: { id: string; keepUntil: number };
  usage: UsageSink;
  detector: Detector;
  /** The loaded model's version, put in every result line. */
  modelVersion: string;
  logger: Logger;
  /** Counters for GET /metrics: the request (through observeRequest) and each file's outcome. */
  metrics?: ServiceMetrics;
  /** Finds the profile a `calibration` form field names (absent: the field is refused as not found). */
  findProfile?: FindProfile;
}

/**
 * The profile a request names, for its key (src/modules/calibrations findProfile, wired by app.ts):
 * throws 400 invalid_calibration_id or 404 calibration_not_found, before anything is charged.
 */
export type FindProfile = (key: ApiKey, id: string) => Promise<CalibrationProfile>;

/** Signature of the batch handler app.ts gives the detect route (src/modules/batch createBatchHandler). */
export type HandleBatch = (ctx: BatchRequest) => Promise<Response>;
