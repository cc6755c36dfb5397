/** Batch mode: read the form, extract and count, charge once, then stream the scores as NDJSON. */
import type { Db } from '../../db/client';
import type { ApiKeyRow } from '../../db/schema';
import type { LabelLang } from '../../engine/types';
import type { ExtractPool } from '../../extract/pool';
import { ApiError, contextOf, observeRequest } from '../../http';
import type { BatchRequest } from '../detect/batch-contract';
import { chargeWords, getQuotaState, quotaError, rateLimitHeaders, refundWords, type QuotaState } from '../quota';
import { readBatchForm } from './form';
import { ClientGoneError, planBatch, scorableWords } from './plan';
import { extractLimitsOf } from './pool';
import { batchStream } from './stream';

/** Content type of the stream (NDJSON, one JSON object per line). */
export const NDJSON_TYPE = 'application/x-ndjson; charset=utf-8';

/** Status logged when the client disconnected before the stream began (nginx's "client closed request"). */
export const CLIENT_CLOSED_STATUS = 499;

/** A quota ApiError whose response carries the batch's label language. */
function localizedQuotaError(error: ApiError, lang: LabelLang): ApiError {
  return new ApiError(error.code, error.params, { ...error.headers, 'content-language': lang });
}

/**
 * Charges the words of the scorable files in one atomic statement (a batch is one call), or
 * throws the 429. Nothing to score means nothing charged: the state is only read.
 */
export function chargeBatch(db: Db, key: ApiKeyRow, words: number, lang: LabelLang): QuotaState {
  const before = getQuotaState(db, key);
  if (words === 0) return before;
  if (words > before.remaining) throw localizedQuotaError(quotaError('quota_exceeded', before, words), lang);
  const charge = chargeWords(db, key, words);
  if (!charge.ok) throw localizedQuotaError(quotaError(charge.code, charge.state, words), lang);
  return charge.state;
}

/** Runs one batch request with `pool`; see BatchRequest for the contract with the detect route. */
export async function runBatch(ctx: BatchRequest, pool: ExtractPool): Promise<Response> {
  const { request, key, config, db, detector, logger } = ctx;
  const requestCtx = contextOf(request);
  // A trial key out of calls is refused before a byte of the body is read.
  const initial = getQuotaState(db, key);
  if (initial.callLimit !== null && initial.callsUsed >= initial.callLimit) throw quotaError('trial_calls_exhausted', initial, 0);

  const form = await readBatchForm(request, config);
  const lang = form.lang ?? ctx.lang;
  requestCtx.lang = lang;
  const budget = AbortSignal.timeout(config.batchTimeBudgetMs);
  const budgetSeconds = Math.round(config.batchTimeBudgetMs / 100) / 10;
  let plan;
  try {
    const deps = { pool, limits: extractLimitsOf(config), detector, logger };
    plan = await planBatch(deps, form.files, { client: request.signal, budget }, budgetSeconds);
  } catch (error) {
    if (!(error instanceof ClientGoneError)) throw error;
    observeRequest(ctx, request, { status: CLIENT_CLOSED_STATUS, mode: 'batch', code: 'client_closed', words: 0 });
    return new Response(null, { status: CLIENT_CLOSED_STATUS });
  }

  const words = scorableWords(plan);
  requestCtx.words = words;
  const chargedAt = Date.now();
  const state = chargeBatch(db, key, words, lang);
  const body = batchStream({
    plan,
    detector,
    sensitivity: form.sensitivity,
    lang,
    client: request.signal,
    budget,
    budgetSeconds,
    logger,
    onEnd({ scoredWords, completed }) {
      try {
        refundWords(db, key, words - scoredWords, chargedAt);
      } catch (error) {
        logger.error('batch_refund_failed', { name: (error as Error)?.name ?? 'Error', keyId: key.id });
      }
      const status = completed ? 200 : CLIENT_CLOSED_STATUS;
      observeRequest(ctx, request, { status, mode: 'batch', words: scoredWords, code: completed ? null : 'client_closed' });
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
