/** What GET /v1/limits reports: the server's limits (Config) and the key's plan, read from the values that enforce them. */
import type { Config } from '../../config';
import { MIN_WORDS } from '../../contract';
import { planFor } from '../../plans';
import type { ApiKey } from '../../store/types';
import { EXHAUSTED_FILES_PER_KEY, EXHAUSTED_WINDOW_MS } from '../batch/exhausted';
import { requestPolicy } from '../rate';
import { MAX_CALIBRATION_TEXTS, MAX_CALIBRATIONS_PER_KEY } from '../calibrations/model';
import { MIN_AI_TEXTS, MIN_PROFILE_TEXTS, MIN_PROFILE_WORDS } from '../../detector/decide/profile';
import type { Limits } from './model';

/** The limits a key works under on this server. */
export function limitsOf(config: Config, key: ApiKey): Limits {
  const plan = planFor(key.plan);
  const rate = requestPolicy(plan.id);
  const reads = requestPolicy(plan.id, 'reads');
  return {
    plan: plan.id,
    words: { perMonth: plan.wordsPerMonth, minPerText: MIN_WORDS },
    calls: { lifetime: plan.callLimit },
    ...(config.rateLimits ? { rate: { requests: rate.limit, windowSeconds: Math.round(rate.windowMs / 1000), reads: reads.limit } } : {}),
    single: { maxBodyBytes: config.maxBodyBytes, maxTextChars: config.maxTextChars },
    batch: {
      maxFiles: config.maxFiles,
      maxFileBytes: config.maxFileBytes,
      maxBatchBytes: config.maxBatchBytes,
      maxPdfPages: config.maxPdfPages,
      maxTextChars: config.maxTextChars,
      timeBudgetSeconds: config.batchTimeBudgetMs / 1000,
      extractTimeoutSeconds: config.extractTimeoutMs / 1000,
    },
    extraction: { throttledAfter: EXHAUSTED_FILES_PER_KEY, windowSeconds: Math.round(EXHAUSTED_WINDOW_MS / 1000) },
    calibrations: {
      maxProfiles: MAX_CALIBRATIONS_PER_KEY,
      maxTexts: MAX_CALIBRATION_TEXTS,
      minTextsPerLanguage: MIN_PROFILE_TEXTS,
      minAiTextsPerLanguage: MIN_AI_TEXTS,
      minWordsPerText: MIN_PROFILE_WORDS,
      maxTextChars: config.maxTextChars,
    },
  };
}
