/** Monthly word quotas over a QuotaStore: read the state, charge words (single and batch alike), give words back. */
import { planFor, type PlanId } from '../../plans';
import type { ApiKey, HoldClaim, QuotaStore } from '../../store/types';
import { refundsOwed } from './owed';

/** A key's quota at one instant: words of the current UTC month and lifetime calls. */
export interface QuotaState {
  plan: PlanId;
  /** Words per month of the plan. */
  limit: number;
  /** Words charged this month. */
  used: number;
  /** Words left this month (never negative). */
  remaining: number;
  /** Epoch seconds of the next reset: 00:00 UTC on the first day of next month. */
  resetAt: number;
  /** Lifetime call cap (trial) or null. */
  callLimit: number | null;
  /** Successful calls over the key's lifetime (counted only for plans that cap them). */
  callsUsed: number;
}

/** Outcome of a charge: the new state, or the reason nothing was charged. */
export type ChargeResult =
  | { ok: true; state: QuotaState }
  | { ok: false; code: 'quota_exceeded' | 'trial_calls_exhausted'; state: QuotaState };

/** The key of the UTC calendar month containing `now` (epoch ms), e.g. "2026-11". */
export function periodOf(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}

/** Epoch ms of 00:00 UTC on the first day of the month containing `now` (the period's start). */
export function periodStartMs(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

/** Epoch ms of the first instant of the UTC month after the one containing `now`. */
export function nextResetMs(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

function buildState(key: ApiKey, used: number, callsUsed: number, now: number): QuotaState {
  const plan = planFor(key.plan);
  return {
    plan: plan.id,
    limit: plan.wordsPerMonth,
    used,
    remaining: Math.max(0, plan.wordsPerMonth - used),
    resetAt: Math.floor(nextResetMs(now) / 1000),
    callLimit: plan.callLimit,
    callsUsed,
  };
}

/** True when a trial key has no call left. */
export function callsExhausted(state: QuotaState): boolean {
  return state.callLimit !== null && state.callsUsed >= state.callLimit;
}

/** Current quota of a key (no writes). Lifetime calls are only summed for plans that cap them. */
export async function getQuotaState(quota: QuotaStore, key: ApiKey, now: number = Date.now()): Promise<QuotaState> {
  const counters = await quota.read(key.id, periodOf(now), planFor(key.plan).callLimit !== null);
  return buildState(key, counters.wordsUsed, counters.calls, now);
}

/**
 * Charges `words` and one call to the key's current month in one conditional statement of the
 * store (exact under races between processes and machines); nothing is charged on failure. Single
 * and batch mode both charge through here. A refusal while a refund to the key is owed (owed.ts)
 * is judged once more after it, unless `signal` (the caller's client) has aborted. With `hold`, the
 * words are added to that hold in the same transaction (holds.ts).
 */
export async function chargeWords(
  quota: QuotaStore,
  key: ApiKey,
  words: number,
  now: number = Date.now(),
  signal?: AbortSignal,
  hold?: HoldClaim,
): Promise<ChargeResult> {
  const plan = planFor(key.plan);
  const request = { keyId: key.id, period: periodOf(now), words, wordLimit: plan.wordsPerMonth, callLimit: plan.callLimit, hold };
  let counters = await quota.charge(request);
  // Refused while this process still owes the key a refund (a client that just hung up): judge
  // again once it is written. A request whose own client is gone never waits: the refund it would
  // wait for may be its own, settled only when it returns.
  if (!counters && !signal?.aborted && (await refundsOwed(quota, key.id))) counters = await quota.charge(request);
  if (counters) return { ok: true, state: buildState(key, counters.wordsUsed, counters.calls, now) };
  const state = await getQuotaState(quota, key, now);
  return { ok: false, code: callsExhausted(state) ? 'trial_calls_exhausted' : 'quota_exceeded', state };
}

/**
 * Gives back words charged for work that was never delivered, in the month of the charge
 * (`chargedAt`); never below zero. A batch cut short by a disconnect or its time budget keeps its
 * call (`calls` 0); a single detection whose analysis failed gives its call back too (`calls` 1).
 */
export async function refundWords(quota: QuotaStore, key: ApiKey, words: number, chargedAt: number, calls: 0 | 1 = 0): Promise<void> {
  if (words <= 0 && calls === 0) return;
  await quota.refund(key.id, periodOf(chargedAt), words, calls);
}
