/**
 * GCRA (the generic cell rate algorithm, a token bucket kept as one timestamp): a policy allows
 * `limit` events per `windowMs`, all `limit` at once at most, then one every windowMs/limit. A
 * bucket is its theoretical arrival time `tat` (epoch ms): the bucket is full again at `tat`. The
 * store decides takes atomically (src/store/sqlite/rates.ts, src/store/postgres/rates.ts); these read a bucket for headers and gates.
 */

/** A rate policy: `limit` events per `windowMs`, with a burst of `limit`. */
export interface RatePolicy {
  /** The bucket's name in the store and in the RateLimit headers. */
  readonly name: string;
  readonly limit: number;
  readonly windowMs: number;
}

/** Time one event takes to come back, in ms. */
export function stepMs(policy: RatePolicy): number {
  return policy.windowMs / policy.limit;
}

/** Events the bucket would grant now. */
export function available(policy: RatePolicy, tatMs: number, now: number): number {
  const free = (now + policy.windowMs - Math.max(tatMs, now)) / stepMs(policy);
  return Math.max(0, Math.min(policy.limit, Math.floor(free + 1e-9)));
}

/** Ms until the bucket grants one more event (0 when it would now). */
export function msUntilNext(policy: RatePolicy, tatMs: number, now: number): number {
  return Math.max(0, Math.max(tatMs, now) + stepMs(policy) - policy.windowMs - now);
}

/** Whole seconds until the bucket is full again (the RateLimit field's `t`). */
export function secondsUntilFull(tatMs: number, now: number): number {
  return Math.max(0, Math.ceil((tatMs - now) / 1000));
}
