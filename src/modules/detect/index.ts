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
  presentedSecret,
  readBodyBytes,
  readBodyText,
  requireKey,
  type Logger,
  type RequestFacts,
} from '../../http';
import { sendQueueOf } from '../../http/send-queue';
import type { OpenStreams } from '../../http/open-streams';
import type { ServiceMetrics } from '../../metrics/types';
import type { Server } from 'bun';
import type { ApiKey, QuotaStore, UsageSink } from '../../store/types';
import { IDEMPOTENCY_TTL_MS, idempotencyKeyOf, jsonFingerprint, multipartFingerprint, type Idempotency } from '../idempotency';
import { checkQuotaFirst, rateLimitHeaders, type Holds } from '../quota';
import type { FindProfile, HandleBatch } from './batch-contract';
import type { DocumentDecoration } from 'elysia';
import { validateDetectBody } from './model';
import { detectText } from './service';

export { detectText, toDetectResponse } from './service';
export { MIN_WORDS } from '../../contract';
export { validateDetectBody, type DetectInput, type DetectResponse } from './model';
export { isSensitivity } from '../../contract';
export type { BatchRequest, FindProfile, HandleBatch } from './batch-contract';

/** The versioned path of detection (issue 22): the contract integrators build on. */
export const DETECT_PATH = '/v1/detect';
/** The seed's path, kept as an alias of DETECT_PATH: the same handler and contract. */
export const DETECT_ALIAS_PATH = '/api/detect';
/** Route keys ("METHOD /path") the auth plugin protects and whose handler observes itself. */
/**
 * Batch mode under its own path (issue 45 item 8): multipart only, NDJSON only, so a client generated from
 * the OpenAPI document types each answer with one schema. POST /v1/detect still takes the same forms.
 */
export const DETECT_BATCH_PATH = '/v1/detect/batch';
export const DETECT_ROUTES = [`POST ${DETECT_PATH}`, `POST ${DETECT_ALIAS_PATH}`, `POST ${DETECT_BATCH_PATH}`] as const;

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
  /** Idempotency-Key handling (src/modules/idempotency). */
  idempotency: Idempotency;
  /** Charges held while their results are delivered (src/modules/quota/holds.ts). */
  holds: Holds;
  /** Aborted when the server begins to stop (SIGTERM): batch streams end early with a complete line. */
  stopping?: AbortSignal;
  /** The batch streams still open (the shutdown waits for them). */
  streams?: OpenStreams;
  /** How the two routes appear in the OpenAPI document (src/modules/docs/openapi.ts, which also documents batch mode: given by app.ts, so detect does not import batch). */
  operations?: { detect: DocumentDecoration; alias: DocumentDecoration; batch: DocumentDecoration };
  /** Finds a `calibration` profile of the key (src/modules/calibrations, wired by app.ts; absent: every id is unknown). */
  findProfile?: FindProfile;
}

/** The derived context the route reads and updates (plugins in src/http). */
type DetectContext = RequestFacts & {
  set: { headers: Record<string, unknown> };
  lang: LabelLang;
  words: number;
  /** Bun's server (null when the app is called in-process, app.handle). */
  server: Pick<Server<unknown>, 'port' | 'requestIP'> | null;
};

/** A keyed request's hold: the idempotency record's id and body check, kept until the record expires. */
type KeyedHold = { id: string; bodyCheck: string; keepUntil: number };

/** Lease of a single detection on its idempotency record: far above its run time, short enough that a retry after a crash waits little. */
const SINGLE_LEASE_MS = 60_000;

/** The API key's secret as presented: the idempotency records' HMAC key. */
function secretOf(ctx: DetectContext): string {
  return presentedSecret(ctx.request.headers)?.trim() ?? '';
}

/** True when a batch stream ran to its `complete` line and was not stopped early (only then is it kept for a retry). */
function batchComplete(body: string): boolean {
  const end = body.trimEnd();
  // Only the last line is read: splitting a whole batch answer into lines to find it allocated one string per file.
  const last = end.lastIndexOf('\n') + 1;
  return end.startsWith('{"type":"complete"', last) && !end.includes('"stopped"', last);
}

/** Elysia plugin mounting POST /v1/detect and its alias POST /api/detect. The key was already checked by the auth plugin. */
export function detectModule(deps: DetectModuleOptions) {
  const { config, quota, usage, detector, modelVersion, logger, handleBatch, metrics, idempotency, holds, stopping, streams, operations } =
    deps;
  const findProfile: FindProfile =
    deps.findProfile ??
    ((_key, id) => {
      throw new ApiError('calibration_not_found', { id });
    });
  const observe = { usage, logger, metrics };
  const onRefundEvent = (event: string, fields: Record<string, string | number>) => logger.error(event, fields);

  /** Single mode on a body already read: charge, analyze, observe; the body and its rate-limit headers. */
  async function single(ctx: DetectContext, key: ApiKey, text: string, hold?: KeyedHold) {
    const input = validateDetectBody(parseJson(text));
    // Looked up (through the store's cache) before anything is counted or charged.
    const profile = input.calibration === null ? null : await findProfile(key, input.calibration);
    const outcome = await detectText(
      {
        quota,
        detector,
        modelVersion,
        onRefundEvent,
        signal: ctx.request.signal,
        holds: { holds, ...(hold ?? { keepUntil: 0 }) },
        profile,
        maxTextChars: config.maxTextChars,
      },
      key,
      input,
      ctx.lang,
      (words) => {
        ctx.words = words;
      },
    );
    observeRequest(observe, ctx, { status: 200, mode: 'single', score: outcome.body.score, words: outcome.words });
    return { body: outcome.body, headers: rateLimitHeaders(outcome.state) };
  }

  /** Batch mode on `request` (the original, or one rebuilt from bytes already read). */
  function batch(ctx: DetectContext, key: ApiKey, request: Request, hold?: KeyedHold) {
    // The connection is the original request's: a rebuilt one (a keyed batch) has none.
    const peer = ctx.server?.requestIP(ctx.request);
    const port = ctx.server?.port;
    return handleBatch({
      request,
      key,
      holds,
      hold,
      stopping,
      streams,
      sendQueue: peer && port !== undefined ? sendQueueOf({ localPort: port, address: peer.address, port: peer.port }) : null,
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
      findProfile,
    });
  }

  /** Runs `execute` under the request's Idempotency-Key: once, or replayed (logged, not charged). */
  async function idempotently(
    ctx: DetectContext,
    key: ApiKey,
    idempotencyKey: string,
    fingerprint: Uint8Array,
    mode: 'single' | 'batch',
    execute: (hold: KeyedHold) => Promise<Response>,
  ): Promise<Response> {
    const secret = secretOf(ctx);
    const leaseMs = mode === 'single' ? SINGLE_LEASE_MS : config.batchTimeBudgetMs + SINGLE_LEASE_MS;
    const call = { secret, keyId: key.id, idempotencyKey, fingerprint, leaseMs, isComplete: mode === 'batch' ? batchComplete : undefined };
    // The charge's hold shares the record's id and body check: a retry of the same body after a
    // crash or a hang-up finds what it paid; another body finds nothing to credit (422).
    const keepUntil = Date.now() + IDEMPOTENCY_TTL_MS;
    const { response, replayed } = await idempotency.run(call, async (record) => {
      // Another body under a used key is refused before a batch's files are extracted (its charge checks again).
      if (mode === 'batch') await holds.check(record.id, record.bodyCheck);
      return execute({ ...record, keepUntil });
    });
    if (replayed) {
      // The stored answer says which language it was in.
      ctx.set.headers['content-language'] = response.headers.get('content-language') ?? ctx.lang;
      observeRequest(observe, ctx, { status: response.status, mode, words: 0, replayed: true });
    }
    return response;
  }

  /** A multipart/form-data request: batch mode, under its Idempotency-Key when it has one. */
  async function multipart(ctx: DetectContext, key: ApiKey, contentType: string | null): Promise<Response> {
    const { request } = ctx;
    const idempotencyKey = idempotencyKeyOf(request.headers);
    if (idempotencyKey === null) return batch(ctx, key, request);
    // Refused before the body is read, as without the header, unless a kept answer is replayed
    // (free): 4 parallel 45 MB batches of a key with 10 words left added ~590 MB (issue 29).
    if (!(await idempotency.answered(secretOf(ctx), idempotencyKey))) await checkQuotaFirst(quota, key);
    // The body is read first to fingerprint it, then handed to batch mode as a request of its own.
    const bytes = await readBodyBytes(request, config.maxBatchBytes);
    const fingerprint = await multipartFingerprint(bytes, contentType ?? '');
    const replayable = new Request(request.url, { method: 'POST', headers: request.headers, body: bytes, signal: request.signal });
    return idempotently(ctx, key, idempotencyKey, fingerprint, 'batch', (hold) => batch(ctx, key, replayable, hold));
  }

  const detectBatch = async function detectBatch(context: unknown) {
    const ctx = context as unknown as DetectContext;
    const key = requireKey(ctx.key);
    const contentType = ctx.request.headers.get('content-type');
    if (!isMultipartType(contentType)) throw new ApiError('unsupported_media_type', { variant: 'batch' });
    return multipart(ctx, key, contentType);
  };

  const detect = async function detect(context: unknown) {
    const ctx = context as unknown as DetectContext;
    const { request } = ctx;
    const key = requireKey(ctx.key);
    const contentType = request.headers.get('content-type');
    const idempotencyKey = idempotencyKeyOf(request.headers);
    if (isMultipartType(contentType)) return multipart(ctx, key, contentType);
    if (!isJsonType(contentType)) throw new ApiError('unsupported_media_type');
    const text = await readBodyText(request, config.maxBodyBytes);
    if (idempotencyKey === null) {
      const answer = await single(ctx, key, text);
      Object.assign(ctx.set.headers, answer.headers);
      return answer.body;
    }
    return idempotently(ctx, key, idempotencyKey, jsonFingerprint(text), 'single', async (hold) => {
      const answer = await single(ctx, key, text, hold);
      return Response.json(answer.body, { headers: { ...answer.headers, 'content-language': ctx.lang } });
    });
  };
  return new Elysia({ name: 'detect' })
    .post(DETECT_PATH, detect, { parse: 'none', detail: operations?.detect })
    .post(DETECT_ALIAS_PATH, detect, { parse: 'none', detail: operations?.alias })
    .post(DETECT_BATCH_PATH, detectBatch, { parse: 'none', detail: operations?.batch });
}
