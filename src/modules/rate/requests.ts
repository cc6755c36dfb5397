/**
 * The per-key request rate (issue 28): each authenticated request takes one event from the key's
 * `requests` bucket in the store, so the plan's rate holds across the WORKERS processes sharing a
 * SQLite file and across instances on one PostgreSQL. Answers carry the IETF RateLimit-Policy and
 * RateLimit fields (draft-ietf-httpapi-ratelimit-headers-10), which do not collide with the monthly
 * word quota's X-RateLimit-* headers; a refusal is 429 rate_limited with a short Retry-After.
 *
 * Two buckets per key (issue 32): `requests` for the work (detections, batches, making a
 * calibration profile), `reads` for managing one's own account (GET /v1/usage, /v1/limits; listing,
 * reading and deleting profiles, issue 40). A client that asks for its usage after each detection
 * (the playground does) must not halve its detections, and a burst of detections refused with 429
 * must still let it read when it may retry: the reads have their own, larger budget.
 */
import { ApiError } from '../../http/errors';
import { matchesRoute } from '../../http/routes';
import { planFor } from '../../plans';
import type { ApiKey, RateStore } from '../../store/types';
import { available, msUntilNext, type RatePolicy, secondsUntilFull } from './gcra';

/** The request-rate window: plans give requests per minute. */
export const REQUEST_WINDOW_MS = 60_000;

/** Which budget a request takes from: `requests` (detections, batches, new profiles) or `reads` (usage, limits, reading and deleting profiles). */
export type RequestBucket = 'requests' | 'reads';

/**
 * The bucket of a route (`METHOD /path`, as the rate-limit plugin names it): `reads` for `readRoutes`
 * (`METHOD /pattern`, `:param` segments matching one segment), `requests` for every other route.
 */
export function bucketOf(readRoutes: readonly string[]): (route: string) => RequestBucket {
  const patterns = readRoutes.map((route) => route.split(' ') as [string, string]);
  return (route) => {
    const [method, path] = route.split(' ');
    return patterns.some(([m, pattern]) => m === method && matchesRoute(pattern, path)) ? 'reads' : 'requests';
  };
}

/**
 * Reads of one's own usage and limits per minute, for every plan whose detection rate is lower:
 * ten a second sustained is far above what a client that reads after each detection needs (a free
 * key's 60 detections + 60 reads), and still bounds a loop that does nothing else.
 */
export const READS_PER_MINUTE_FLOOR = 600;

/** The request-rate policy of a plan for one bucket (reads: the plan's detection rate, at least READS_PER_MINUTE_FLOOR). */
export function requestPolicy(plan: string, bucket: RequestBucket = 'requests'): RatePolicy {
  const perMinute = planFor(plan).requestsPerMinute;
  const limit = bucket === 'reads' ? Math.max(perMinute, READS_PER_MINUTE_FLOOR) : perMinute;
  return { name: bucket, limit, windowMs: REQUEST_WINDOW_MS };
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
 * Takes one request of `key` from its `bucket` in the store: the RateLimit headers of its answer,
 * or throws 429 rate_limited (Retry-After: the seconds until one more request fits, at least 1). A
 * refused request takes nothing, so a client that keeps hammering is admitted as soon as the rate allows.
 */
export async function admitRequest(
  rates: RateStore,
  key: ApiKey,
  bucket: RequestBucket = 'requests',
  now: number = Date.now(),
): Promise<Record<string, string>> {
  const policy = requestPolicy(key.plan, bucket);
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
