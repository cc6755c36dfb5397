/** SQLite QuotaStore: monthly counters read and charged with prepared raw SQL (~7 us a statement; the builder ~33 us). */
import type { ChargeRequest, QuotaStore, UsageCounters } from '../types';
import { retryBusy } from './busy';
import type { Db } from './client';
import { GroupCommit } from './group-commit';
import { prepared } from './prepared';

const MONTH_SQL = 'SELECT words_used AS used FROM monthly_usage WHERE key_id = $keyId AND period = $period';
const PERIOD_CALLS_SQL = 'SELECT calls FROM monthly_usage WHERE key_id = $keyId AND period = $period';
const CALLS_SQL = 'SELECT COALESCE(SUM(calls), 0) AS calls FROM monthly_usage WHERE key_id = $keyId';

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

/** Gives words (and calls) back to a month, never below zero (also used by ./ledger.ts). */
export const REFUND_SQL = `UPDATE monthly_usage SET words_used = MAX(0, words_used - $words), calls = MAX(0, calls - $calls)
  WHERE key_id = $keyId AND period = $period`;

/** Epoch ms by the store's clock: SQLite is one machine, so every process reads the same clock (leases, ./ledger.ts). */
export const STORE_NOW_MS = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)";

/** Adds a charge's words to its hold (ChargeLedger, ./ledger.ts), creating it at the first charge; the attempt takes its lease. */
const HOLD_SQL = `
INSERT INTO charge_holds (id, key_id, period, charged, delivered, owner, attempt, lease_until, expires_at, body_check)
VALUES ($id, $keyId, $period, $words, 0, $owner, $attempt, ${STORE_NOW_MS} + $leaseMs, $expiresAt, $bodyCheck)
ON CONFLICT (id) DO UPDATE
  SET charged = charge_holds.charged + excluded.charged, owner = excluded.owner, attempt = excluded.attempt,
      lease_until = excluded.lease_until, expires_at = MAX(charge_holds.expires_at, excluded.expires_at)`;

function lifetimeCalls(db: Db, keyId: number): number {
  return prepared<{ calls: number }>(db, CALLS_SQL).get({ keyId })?.calls ?? 0;
}

/** Runs one charge statement; inside the group's transaction (group-commit.ts). */
function chargeNow(db: Db, request: ChargeRequest): UsageCounters | null {
  const row = prepared<{ used: number }>(db, CHARGE_SQL).get({
    keyId: request.keyId,
    period: request.period,
    words: request.words,
    limit: request.wordLimit,
    callLimit: request.callLimit,
  });
  if (!row) return null;
  // Same transaction as the charge: a hold never misses words that were charged, nor the reverse.
  const hold = request.hold;
  if (hold) {
    const { id, owner, attempt, leaseMs, expiresAt, bodyCheck } = hold;
    prepared(db, HOLD_SQL).run({
      id,
      owner,
      attempt,
      leaseMs,
      expiresAt,
      bodyCheck,
      keyId: request.keyId,
      period: request.period,
      words: request.words,
    });
  }
  return { wordsUsed: row.used, calls: request.callLimit === null ? 0 : lifetimeCalls(db, request.keyId) };
}

/** The QuotaStore of one SQLite connection; charges of one event-loop turn share a commit. */
export function sqliteQuotaStore(db: Db, timeoutMs: number): QuotaStore {
  const group = new GroupCommit(db, (request) => chargeNow(db, request), timeoutMs);
  return {
    async read(keyId, period, withCalls) {
      return retryBusy(() => {
        const month = prepared<{ used: number }>(db, MONTH_SQL).get({ keyId, period });
        return { wordsUsed: month?.used ?? 0, calls: withCalls ? lifetimeCalls(db, keyId) : 0 };
      }, performance.now() + timeoutMs);
    },
    async periodCalls(keyId, period) {
      return retryBusy(
        () => prepared<{ calls: number }>(db, PERIOD_CALLS_SQL).get({ keyId, period })?.calls ?? 0,
        performance.now() + timeoutMs,
      );
    },
    charge: (request) => group.charge(request),
    async refund(keyId, period, words, calls) {
      if (words <= 0 && calls === 0) return;
      await retryBusy(() => prepared(db, REFUND_SQL).run({ keyId, period, words, calls }), performance.now() + timeoutMs);
    },
  };
}
