/** X-RateLimit-* and Retry-After headers, and the 429 error built from a quota state. */
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

/** Seconds until the quota resets (RFC 9110 §10.2.3 delay-seconds, at least 1). */
export function retryAfterSeconds(state: QuotaState, now: number = Date.now()): number {
  return Math.max(1, state.resetAt - Math.floor(now / 1000));
}

/**
 * The 429 for a request needing `words` that the state cannot cover. A trial key out of calls
 * gets `trial_calls_exhausted` without Retry-After: its calls never reset, so no wait helps.
 */
export function quotaError(
  code: 'quota_exceeded' | 'trial_calls_exhausted',
  state: QuotaState,
  words: number,
  now: number = Date.now(),
): ApiError {
  const headers = rateLimitHeaders(state);
  if (code === 'trial_calls_exhausted') return new ApiError(code, { limit: state.callLimit ?? 0 }, headers);
  const reset = new Date(state.resetAt * 1000).toISOString();
  return new ApiError(
    code,
    { words, remaining: state.remaining, limit: state.limit, reset },
    { ...headers, 'retry-after': String(retryAfterSeconds(state, now)) },
  );
}
