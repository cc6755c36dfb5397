/**
 * The per-key request rate (issue 28): each authenticated request takes one event from the key's
 * `requests` bucket in the store, so the plan's rate holds across the WORKERS processes sharing a
 * SQLite file and across instances on one PostgreSQL. Answers carry the IETF RateLimit-Policy and
 * RateLimit fields (draft-ietf-httpapi-ratelimit-headers-10), which do not collide with the monthly
 * word quota's X-RateLimit-* headers; a refusal is 429 rate_limited with a short Retry-After.
 */
import { ApiError } from '../../http/errors';
import { planFor } from '../../plans';
import type { ApiKey, RateStore } from '../../store/types';
import { available, msUntilNext, type RatePolicy, secondsUntilFull } from './gcra';

/** The request-rate window: plans give requests per minute. */
export const REQUEST_WINDOW_MS = 60_000;

/** The request-rate policy of a plan. */
export function requestPolicy(plan: string): RatePolicy {
  return { name: 'requests', limit: planFor(plan).requestsPerMinute, windowMs: REQUEST_WINDOW_MS };
}

/** RateLimit-Policy and RateLimit of a bucket at `now` (structured fields: a policy name, then parameters). */
export function rateHeaders(policy: RatePolicy, tatMs: number, now: number): Record<string, string> {
  const item = `"${policy.name}"`;
  return {
    'ratelimit-policy': `${item};q=${policy.limit};w=${Math.round(policy.windowMs / 1000)}`,
    ratelimit: `${item};r=${available(policy, tatMs, now)};t=${secondsUntilFull(tatMs, now)}`,
  };
}

/**
 * Takes one request of `key` from the store: the RateLimit headers of its answer, or throws 429
 * rate_limited (Retry-After: the seconds until one more request fits, at least 1). A refused
 * request takes nothing, so a client that keeps hammering is admitted as soon as the rate allows.
 */
export async function admitRequest(rates: RateStore, key: ApiKey, now: number = Date.now()): Promise<Record<string, string>> {
  const policy = requestPolicy(key.plan);
  const state = await rates.take({
    keyId: key.id,
    bucket: policy.name,
    limit: policy.limit,
    windowMs: policy.windowMs,
    cost: 1,
    force: false,
    now,
  });
  const headers = rateHeaders(policy, state.tatMs, now);
  if (state.granted >= 1) return headers;
  const waitMs = msUntilNext(policy, state.tatMs, now);
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  const seconds = Math.round(policy.windowMs / 1000);
  return Promise.reject(
    new ApiError(
      'rate_limited',
      { limit: policy.limit, seconds, retryAfter },
      { ...headers, 'retry-after': String(retryAfter) },
      { unit: 'requests', needed: 1, remaining: 0, limit: policy.limit, resetAt: new Date(now + waitMs).toISOString() },
    ),
  );
}
