/** Monthly word quotas: read the state, and charge words with one atomic conditional statement. */
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import type { ApiKeyRow } from '../../db/schema';
import { planFor, type PlanId } from '../../plans';

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
  /** Successful calls over the key's lifetime. */
  callsUsed: number;
}

/** Outcome of a charge: the new state, or the reason nothing was charged. */
export type ChargeResult =
  { ok: true; state: QuotaState } | { ok: false; code: 'quota_exceeded' | 'trial_calls_exhausted'; state: QuotaState };

/** The key of the UTC calendar month containing `now` (epoch ms), e.g. "2026-11". */
export function periodOf(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}

/** Epoch ms of the first instant of the UTC month after the one containing `now`. */
export function nextResetMs(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

function buildState(key: ApiKeyRow, used: number, callsUsed: number, now: number): QuotaState {
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

const MONTH_SQL = 'SELECT words_used AS used FROM monthly_usage WHERE key_id = $keyId AND period = $period';
const CALLS_SQL = 'SELECT COALESCE(SUM(calls), 0) AS calls FROM monthly_usage WHERE key_id = $keyId';

function lifetimeCalls(db: Db, key: ApiKeyRow): number {
  return prepared<{ calls: number }>(db, CALLS_SQL).get({ keyId: key.id })?.calls ?? 0;
}

/** Current quota of a key (no writes). Lifetime calls are only summed for plans that cap them. */
export function getQuotaState(db: Db, key: ApiKeyRow, now: number = Date.now()): QuotaState {
  const month = prepared<{ used: number }>(db, MONTH_SQL).get({ keyId: key.id, period: periodOf(now) });
  const callsUsed = planFor(key.plan).callLimit === null ? 0 : lifetimeCalls(db, key);
  return buildState(key, month?.used ?? 0, callsUsed, now);
}

/**
 * One statement decides and charges: the INSERT ... SELECT inserts the month's first row only
 * when the words fit and the lifetime call cap (if any) is not reached; on conflict the DO UPDATE
 * adds the words only if the month's total stays within the plan. SQLite runs a statement under
 * the write lock, so parallel requests (even from other processes) can neither overspend nor lose
 * a count. No row returned means nothing was charged. Raw SQL: drizzle's builder cannot express
 * an upsert from a conditional SELECT.
 */
const CHARGE_SQL = `
INSERT INTO monthly_usage (key_id, period, words_used, calls)
SELECT $keyId, $period, $words, 1
WHERE $words <= $limit
  AND ($callLimit IS NULL OR (SELECT COALESCE(SUM(calls), 0) FROM monthly_usage WHERE key_id = $keyId) < $callLimit)
ON CONFLICT (key_id, period) DO UPDATE
  SET words_used = words_used + excluded.words_used, calls = calls + 1
  WHERE monthly_usage.words_used + excluded.words_used <= $limit
RETURNING words_used AS used`;

/** Charges `words` (and one call) to the key's current month, atomically; nothing is charged on failure. */
export function chargeWords(db: Db, key: ApiKeyRow, words: number, now: number = Date.now()): ChargeResult {
  const plan = planFor(key.plan);
  const row = prepared<{ used: number }>(db, CHARGE_SQL).get({
    keyId: key.id,
    period: periodOf(now),
    words,
    limit: plan.wordsPerMonth,
    callLimit: plan.callLimit,
  });
  if (row) return { ok: true, state: buildState(key, row.used, plan.callLimit === null ? 0 : lifetimeCalls(db, key), now) };
  const state = getQuotaState(db, key, now);
  const callsOut = state.callLimit !== null && state.callsUsed >= state.callLimit;
  return { ok: false, code: callsOut ? 'trial_calls_exhausted' : 'quota_exceeded', state };
}

const REFUND_SQL = `UPDATE monthly_usage SET words_used = MAX(0, words_used - $words), calls = MAX(0, calls - $calls)
  WHERE key_id = $keyId AND period = $period`;

/**
 * Gives back words charged for work that was never delivered, in the month of the charge
 * (`chargedAt`); never below zero. A batch cut short by a disconnect or its time budget keeps its
 * call (`calls` 0); a single detection whose analysis failed gives its call back too (`calls` 1).
 */
export function refundWords(db: Db, key: ApiKeyRow, words: number, chargedAt: number, calls: 0 | 1 = 0): void {
  if (words <= 0 && calls === 0) return;
  prepared(db, REFUND_SQL).run({ keyId: key.id, period: periodOf(chargedAt), words, calls });
}
