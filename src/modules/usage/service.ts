/** A key's usage report (GET /v1/usage): the same quota state the X-RateLimit-* headers come from, plus the period's calls. */
import type { ApiKey, QuotaStore } from '../../store/types';
import { getQuotaState, periodOf, periodStartMs, type QuotaState } from '../quota';
import type { Usage } from './model';

/** The report and the quota state it was built from (for the rate-limit headers of the same answer). */
export interface UsageReport {
  body: Usage;
  state: QuotaState;
}

/** Reads (never charges) the key's quota for the month containing `now`. */
export async function usageReport(quota: QuotaStore, key: ApiKey, now: number = Date.now()): Promise<UsageReport> {
  const [state, calls] = await Promise.all([getQuotaState(quota, key, now), quota.periodCalls(key.id, periodOf(now))]);
  const body: Usage = {
    plan: state.plan,
    period: { start: new Date(periodStartMs(now)).toISOString(), end: new Date(state.resetAt * 1000).toISOString() },
    words: { limit: state.limit, used: state.used, remaining: state.remaining },
    calls: { used: calls },
    trial:
      state.callLimit === null ? null : { callsLimit: state.callLimit, callsRemaining: Math.max(0, state.callLimit - state.callsUsed) },
  };
  return { body, state };
}
