/** X-RateLimit-* headers, and the error built from a quota state that cannot cover a request. */
import { ApiError } from '../../http/errors';
import type { QuotaState } from './service';

/** Headers every response to a request with a valid key carries (words, and the reset in epoch seconds). */
export function rateLimitHeaders(state: QuotaState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(state.resetAt),
  };
}

/**
 * The error for a request needing `words` that the state cannot cover (docs/api.md, "Quota
 * errors"). None carries Retry-After: generic retry libraries honour it, and a monthly reset is
 * days away (issue 28: they hung for 4.5 days). The reset is in X-RateLimit-Reset and `resetAt`.
 * - `quota_exceeded` (429): not enough words left this month; the same request fits after the reset.
 * - `exceeds_plan` (413): the request needs more words than the plan gives in a whole month; no
 *   wait helps: split it, or use a larger plan. A calibration cannot be split (variant `calibration`:
 *   its message points to the offline `bun run calibrate`, issue 39).
 * - `trial_calls_exhausted` (429): a trial key's lifetime calls are used up; they never reset.
 */
export function quotaError(
  code: 'quota_exceeded' | 'trial_calls_exhausted',
  state: QuotaState,
  words: number,
  /**
   * `unread`: a batch refused before its body was read, so `words` is the least any batch needs.
   * `calibration`: a calibration set, which cannot be split (errorVariants.*_calibration).
   */
  variant?: 'unread' | 'calibration',
): ApiError {
  const headers = rateLimitHeaders(state);
  if (code === 'trial_calls_exhausted') {
    const limit = state.callLimit ?? 0;
    return new ApiError(code, { limit }, headers, { unit: 'calls', needed: 1, remaining: 0, limit, resetAt: null });
  }
  const resetAt = new Date(state.resetAt * 1000).toISOString();
  const details = { unit: 'words', needed: words, remaining: state.remaining, limit: state.limit, resetAt } as const;
  const which: { variant?: string } = variant ? { variant } : {};
  if (words > state.limit) return new ApiError('exceeds_plan', { words, limit: state.limit, plan: state.plan, ...which }, headers, details);
  const params = { words, remaining: state.remaining, limit: state.limit, reset: resetAt, ...which };
  return new ApiError(code, params, headers, details);
}
