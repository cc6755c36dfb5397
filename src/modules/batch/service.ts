/** Batch mode: check the quota, read the form, extract and count, charge once, then stream the scores as NDJSON. */
import type { LabelLang } from '../../contract';
import type { ExtractPool } from '../../extract/pool';
import { ApiError, CLIENT_CLOSED_STATUS, observeRequest } from '../../http';
import { acknowledged } from '../../http/send-queue';
import { driverCode } from '../../store/errors';
import type { BatchRequest } from '../detect/batch-contract';
import { checkQuotaFirst, getQuotaState, quotaError, rateLimitHeaders, type HeldCharge, type QuotaState } from '../quota';
import { readBatchForm } from './form';
import { ClientGoneError, OverQuotaError, planBatch, scorableWords } from './plan';
import type { ExhaustedFiles } from './exhausted';
import { exhaustedFilesFor, extractLimitsOf } from './pool';
import { batchStream } from './stream';

/** Content type of the stream (NDJSON, one JSON object per line). */
export const NDJSON_TYPE = 'application/x-ndjson; charset=utf-8';

/** A quota ApiError whose response carries the batch's label language. */
function localizedQuotaError(error: ApiError, lang: LabelLang): ApiError {
  return new ApiError(error.code, error.params, { ...error.headers, 'content-language': lang }, error.details);
}

/**
 * Charges the words of the scorable files (a batch is one call) through the same conditional
 * charge as single mode, held while the results are delivered (quota/holds.ts), or throws the 429.
 * Nothing to score means nothing charged: the state is only read.
 */
export async function chargeBatch(
  ctx: Pick<BatchRequest, 'quota' | 'holds' | 'hold' | 'key'>,
  words: number,
  lang: LabelLang,
  now: number,
): Promise<{ state: QuotaState; hold: HeldCharge | null }> {
  if (words === 0) return { state: await getQuotaState(ctx.quota, ctx.key, now), hold: null };
  const charge = await ctx.holds.charge(ctx.key, words, { ...ctx.hold, now });
  if (!charge.ok) throw localizedQuotaError(quotaError(charge.code, charge.state, words), lang);
  return { state: charge.state, hold: charge.hold };
}

/** The profile a batch's `calibration` field names; 404 calibration_not_found when batch mode was given no way to find one. */
function findBatchProfile(ctx: BatchRequest, id: string) {
  if (!ctx.findProfile) throw new ApiError('calibration_not_found', { id });
  return ctx.findProfile(ctx.key, id);
}

/** A batch form whose reading (upload and parse) takes this long is logged (`batch_form_slow`). */
export const SLOW_FORM_MS = 250;

/** Numbers the batches of this process: each is its own owner in the extraction pool's fair queue. */
let batchSequence = 0;

/** Runs one batch request with `pool`; see BatchRequest for the contract with the detect route. */
export async function runBatch(
  ctx: BatchRequest,
  pool: ExtractPool,
  exhausted: ExhaustedFiles = exhaustedFilesFor(ctx.config),
): Promise<Response> {
  const { request, key, config, quota, detector, logger } = ctx;
  const observe = { usage: ctx.usage, logger, metrics: ctx.metrics };
  const initial = await checkQuotaFirst(quota, key);

  const readAt = performance.now();
  const form = await readBatchForm(request, config);
  // Bun parses a multipart body in one native call that holds the event loop (issue 44 item 8: 0.5-2.9 s
  // for 5,000 files of 10 KB on 2 shared cores): said, so an operator sees where other requests waited.
  const readMs = performance.now() - readAt;
  if (readMs >= SLOW_FORM_MS) logger.warn('batch_form_slow', { files: form.files.length, ms: Math.round(readMs) });
  const lang = form.lang ?? ctx.lang;
  ctx.onLang(lang);
  // The profile is looked up once, before any file is read or anything charged.
  const profile = form.calibration === null ? null : await findBatchProfile(ctx, form.calibration);
  const budget = AbortSignal.timeout(config.batchTimeBudgetMs);
  const budgetSeconds = Math.round(config.batchTimeBudgetMs / 100) / 10;
  let plan: Awaited<ReturnType<typeof planBatch>>;
  try {
    // Fair queue: keys share the workers equally, and a key's requests share its turn.
    const owner = { key: String(key.id), request: String(++batchSequence) };
    const gate = await exhausted.gate(owner.key, (error) => logger.error('extract_throttle_store_failed', { name: driverCode(error) }));
    const deps = { pool, limits: extractLimitsOf(config), detector, logger, owner, gate };
    plan = await planBatch(deps, form.files, { client: request.signal, budget, stopping: ctx.stopping }, budgetSeconds, initial.remaining);
  } catch (error) {
    if (error instanceof OverQuotaError) {
      ctx.onWords(error.words);
      throw localizedQuotaError(quotaError('quota_exceeded', initial, error.words), lang);
    }
    if (!(error instanceof ClientGoneError)) throw error;
    observeRequest(observe, ctx.facts, { status: CLIENT_CLOSED_STATUS, mode: 'batch', code: 'client_closed', words: 0 });
    return new Response(null, { status: CLIENT_CLOSED_STATUS });
  }

  const words = scorableWords(plan);
  ctx.onWords(words);
  const { state, hold } = await chargeBatch(ctx, words, lang, Date.now());
  // Open until its last line reached the client (or it was cut): the shutdown waits for it.
  const closeStream = ctx.streams?.open();
  const body = batchStream({
    plan,
    detector,
    modelVersion: ctx.modelVersion,
    full: form.full,
    sensitivity: form.sensitivity,
    profile,
    lang,
    client: request.signal,
    budget,
    stopping: ctx.stopping,
    budgetSeconds,
    logger,
    onFile: (outcome) => ctx.metrics?.batchFile(outcome),
    acknowledged: ctx.sendQueue ? (signal) => acknowledged(ctx.sendQueue!, signal) : undefined,
    onDeliver: hold ? (deliveredWords) => hold.deliver(deliveredWords) : undefined,
    onEnd({ deliveredWords, completed, stopped, failed }) {
      closeStream?.();
      // Every result counted already (before it was handed over): nothing to give back.
      if (completed && deliveredWords === hold?.words) void hold.complete();
      // Words of files not scored, or scored but never handed to the client, are given back.
      else void hold?.settle();
      // A stream the shutdown stopped was answered whole (its last line says what was not processed).
      const status = completed || stopped ? 200 : failed ? 503 : CLIENT_CLOSED_STATUS;
      const code = completed ? null : stopped ? 'shutting_down' : (failed ?? 'client_closed');
      observeRequest(observe, ctx.facts, { status, mode: 'batch', words: deliveredWords, code });
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': NDJSON_TYPE,
      'cache-control': 'no-store',
      'content-language': lang,
      'x-content-type-options': 'nosniff',
      // Asks reverse proxies (nginx) not to buffer the stream, so each line still arrives on its own.
      'x-accel-buffering': 'no',
      ...rateLimitHeaders(state),
    },
  });
}
