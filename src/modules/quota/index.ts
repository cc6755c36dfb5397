/** Quota module: atomic word charging, quota state and rate-limit headers (used by single and batch mode). */
export { chargeWords, getQuotaState, nextResetMs, periodOf, refundWords, type ChargeResult, type QuotaState } from './service';
export { chargeWordsGrouped } from './group-commit';
export { quotaError, rateLimitHeaders, retryAfterSeconds } from './headers';
export { FLUSH_DELAY_MS, flushUsage, recordUsage } from './events';
