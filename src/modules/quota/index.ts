/** Quota module: atomic word charging, quota state and rate-limit headers (used by single and batch mode). */
export {
  callsExhausted,
  chargeWords,
  getQuotaState,
  nextResetMs,
  periodOf,
  periodStartMs,
  refundWords,
  type ChargeResult,
  type QuotaState,
} from './service';
export { refundOrRetry, type RefundReport } from './refund';
export { oweRefund } from './owed';
export { quotaError, rateLimitHeaders } from './headers';
export { checkQuotaFirst } from './first';
export {
  createHolds,
  HOLD_LEASE_MS,
  RENEW_EVERY_MS,
  SWEPT_KEEP_MS,
  type DeliverOutcome,
  type HeldCharge,
  type HeldChargeResult,
  type HoldOptions,
  type Holds,
} from './holds';
