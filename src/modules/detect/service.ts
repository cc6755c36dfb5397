/** Single-text detection: validate, count words, check and charge the quota, analyze, shape the response. */
import type { Analysis, CalibrationProfile, Detector } from '../../detector/types';
import { DEFAULT_MAX_TEXT_CHARS, MIN_WORDS, type LabelLang } from '../../contract';
import { excessSentences } from '../../extract/sentences';
import { ApiError } from '../../http/errors';
import type { ApiKey, QuotaStore } from '../../store/types';
import {
  chargeWords,
  oweRefund,
  quotaError,
  refundOrRetry,
  type ChargeResult,
  type HeldCharge,
  type Holds,
  type QuotaState,
  type RefundReport,
} from '../quota';
import type { DetectInput, DetectResponse } from './model';

export { validateDetectBody, type DetectInput, type DetectResponse } from './model';

/** Decimals of `ms_cost`: milliseconds to the microsecond; more would be timer noise. */
const MS_COST_DECIMALS = 3;

/** Rounds a duration in milliseconds to MS_COST_DECIMALS. */
export function roundMs(ms: number): number {
  const scale = 10 ** MS_COST_DECIMALS;
  return Math.round(ms * scale) / scale;
}

/** Maps an Analysis, the post-charge quota and the model version to the response body. */
export function toDetectResponse(analysis: Analysis, state: QuotaState, modelVersion: string): DetectResponse {
  return {
    success: true,
    score: analysis.score,
    verdict: analysis.verdict,
    docTypeLabel: analysis.docTypeLabel,
    totalDimensions: analysis.totalDimensions,
    activeDimensions: analysis.activeDimensions,
    ms_cost: roundMs(analysis.msCost),
    rate_limit: state.limit,
    rate_remaining: state.remaining,
    dimensions: analysis.dimensions,
    textAnnotations: analysis.textAnnotations,
    bullets: analysis.bullets,
    verdictKey: analysis.verdictKey,
    docType: analysis.docType,
    language: analysis.language,
    sensitivity: analysis.sensitivity,
    probability: analysis.probability,
    words: analysis.words,
    segments: analysis.segments,
    aiShare: analysis.aiShare,
    measuredError: analysis.measuredError,
    // Only in answers that named a profile: the others keep their shape.
    ...(analysis.calibration ? { calibration: analysis.calibration } : {}),
    sentenceScores: analysis.sentenceScores,
    modelVersion,
  };
}

/** Dependencies of a single detection. */
export interface DetectDeps {
  quota: QuotaStore;
  detector: Detector;
  /** The loaded model's version (src/model-version.ts), put in every result. */
  modelVersion: string;
  /** Where a refund that cannot be written at once is reported. */
  onRefundEvent: RefundReport;
  /**
   * Aborts when the client's connection is gone (a hang-up, or Bun dropping a connection that
   * pipelined a second request behind this one): its charge is then given back, as nobody reads the answer.
   */
  signal?: AbortSignal;
  /**
   * Where the charge is held until the answer is handed over (quota/holds.ts): a process killed
   * during the analysis gives it back once its lease runs out. A keyed request's hold has its
   * idempotency record's id, so a retry after a crash reuses the charge instead of paying again.
   */
  holds?: { holds: Holds; id?: string; bodyCheck?: string; keepUntil: number };
  /** The calibration profile the request named (found before the charge), or none. */
  profile?: CalibrationProfile | null;
  /** Most characters of a text (MAX_TEXT_CHARS; default DEFAULT_MAX_TEXT_CHARS). */
  maxTextChars?: number;
}

/** Result of a successful detection: the body, the quota after the charge, and the word count. */
export interface DetectOutcome {
  body: DetectResponse;
  state: QuotaState;
  words: number;
}

/** Throws 413 text_too_long when `text` has more than `maxTextChars` characters (UTF-16 code units). */
export function checkTextLength(text: string, maxTextChars: number = DEFAULT_MAX_TEXT_CHARS): void {
  if (text.length > maxTextChars) throw new ApiError('text_too_long', { count: text.length, limit: maxTextChars });
}

/**
 * Throws the 4xx a single text gets before it is charged or scored: longer than `maxTextChars`
 * (text_too_long: one text is one synchronous call, issue 40), too few words to score
 * (text_too_short), or too many sentences (too_many_sentences: scoring costs memory and time per
 * sentence, and 1 MiB of "Go. " is 262k of them, ~3 s and ~390 MB). `detect --jsonl` and
 * `calibrate` apply it too.
 */
export function checkScorable(text: string, words: number, maxTextChars: number = DEFAULT_MAX_TEXT_CHARS): void {
  checkTextLength(text, maxTextChars);
  if (words < MIN_WORDS) throw new ApiError('text_too_short', { count: words, min: MIN_WORDS });
  const excess = excessSentences(text);
  if (excess) throw new ApiError('too_many_sentences', { limit: excess.limit });
}

/** Charges a single text: under a hold when the route gives one (deps.holds), else directly (`hold` null). */
async function chargeSingle(
  deps: DetectDeps,
  key: ApiKey,
  words: number,
  now: number,
): Promise<(ChargeResult & { ok: false }) | { ok: true; state: QuotaState; hold: HeldCharge | null }> {
  if (deps.holds) {
    const { holds, id, bodyCheck, keepUntil } = deps.holds;
    return holds.charge(key, words, { id, bodyCheck, keepUntil, signal: deps.signal, now });
  }
  const charge = await chargeWords(deps.quota, key, words, now, deps.signal);
  return charge.ok ? { ...charge, hold: null } : charge;
}

/**
 * Runs one detection for a key. Words are counted once with the detector's definition, then
 * charged atomically BEFORE the analysis (one statement decides and charges, so parallel requests
 * cannot overspend and an exhausted key costs no analysis; the stores commit the charges of one
 * event-loop turn together); if the analysis fails or the client has gone, the charge is given
 * back, so only detections that are answered are charged.
 */
export async function detectText(
  deps: DetectDeps,
  key: ApiKey,
  input: DetectInput,
  lang: LabelLang,
  onWords?: (words: number) => void,
): Promise<DetectOutcome> {
  const words = deps.detector.countWords(input.text);
  onWords?.(words);
  checkScorable(input.text, words, deps.maxTextChars);
  if (deps.signal?.aborted) throw new ApiError('client_closed');
  // From the moment the client hangs up, its refund is owed: the key's next charge waits for it (quota/owed.ts).
  const settled = Promise.withResolvers<void>();
  const owe = () => oweRefund(deps.quota, key.id, settled.promise);
  deps.signal?.addEventListener('abort', owe, { once: true });
  try {
    const chargedAt = Date.now();
    const charge = await chargeSingle(deps, key, words, chargedAt);
    if (!charge.ok) throw quotaError(charge.code, charge.state, words);
    const hold = charge.hold;
    let analysis: Analysis;
    try {
      // The charge waited for a commit: the client may have gone meanwhile, and nobody would read the analysis.
      if (deps.signal?.aborted) throw new ApiError('client_closed');
      analysis = deps.detector.analyze(input.text, {
        sensitivity: input.sensitivity,
        labelLang: lang,
        words,
        profile: deps.profile ?? null,
        modelVersion: deps.modelVersion,
      });
      if (deps.signal?.aborted) throw new ApiError('client_closed');
    } catch (error) {
      if (hold) await hold.settle({ calls: 1 });
      else await refundOrRetry(deps.quota, key, words, chargedAt, 1, deps.onRefundEvent);
      throw error;
    }
    // Counted as delivered before it is handed over, under the charge's lease: a process that
    // stalled past it (its charge given back meanwhile) answers 503 instead of a free result.
    const outcome = hold ? await hold.complete() : 'counted';
    if (outcome !== 'counted') {
      await hold?.settle({ calls: 1 });
      throw new ApiError(outcome, {}, { 'retry-after': '1' });
    }
    return { body: toDetectResponse(analysis, charge.state, deps.modelVersion), state: charge.state, words };
  } finally {
    deps.signal?.removeEventListener('abort', owe);
    settled.resolve();
  }
}
