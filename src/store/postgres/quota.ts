/**
 * PostgreSQL QuotaStore. Each charge is one conditional upsert: the month's row gets the words only
 * if its total stays within the plan. Under READ COMMITTED a concurrent update of the same row
 * makes PostgreSQL wait for the row lock and re-check the WHERE against the committed row, so
 * instances racing one key can never overspend.
 *
 * Group commit: the charges of one event-loop turn go to PostgreSQL in one call of charge_words
 * (drizzle/postgres/0001_charge_function.sql), which runs each charge's conditional upsert in
 * order: one round trip, one statement and one commit (WAL flush) for the group. Charges are
 * sorted by key id first (stable, so one key's charges keep their arrival order): every group
 * takes row locks in the same order, so groups from different instances cannot deadlock.
 * Measured here (local PostgreSQL 15, fsync on, 2 cores, 8 connections, groups of 4):
 * single statements 2,700 charges/s over varied keys and 1,200/s on one hot key; a pipelined
 * BEGIN..COMMIT per group 12,400 / 6,700; one charge_words call per group 19,800 / 8,700.
 *
 * Lifetime call caps (trial) span every month's row, which one upsert cannot lock: the function
 * takes a transaction advisory lock on a capped charge's key first (see the migration).
 */
import { withDeadline } from '../deadline';
import type { ChargeRequest, QuotaStore, UsageCounters } from '../types';
import type { PgDb } from './client';

const CHARGE_SQL = `SELECT charge_index, used_after, lifetime_calls
  FROM charge_words($1::integer[], $2::text[], $3::integer[], $4::integer[], $5::integer[])`;
const CALLS_SQL = 'SELECT COALESCE(SUM(calls), 0)::integer AS calls FROM monthly_usage WHERE key_id = $1::integer';
const PERIOD_CALLS_SQL = 'SELECT calls FROM monthly_usage WHERE key_id = $1::integer AND period = $2::text';
const MONTH_SQL = 'SELECT words_used FROM monthly_usage WHERE key_id = $1::integer AND period = $2::text';
/** Gives words (and calls) back to a month, never below zero (also used by ./ledger.ts). */
export const REFUND_SQL = `UPDATE monthly_usage SET words_used = GREATEST(0, words_used - $3::integer), calls = GREATEST(0, calls - $4::integer)
  WHERE key_id = $1::integer AND period = $2::text`;

/** Most charges in one call: bounds a group's lock time and its reply. */
export const MAX_GROUP = 256;

interface PendingCharge {
  request: ChargeRequest;
  resolve(result: UsageCounters | null): void;
  reject(error: unknown): void;
}

type Rows = Array<Record<string, unknown>>;

/** Epoch ms by PostgreSQL's clock, shared by every instance (leases, ./ledger.ts): an instance whose clock is off changes nothing. */
export const STORE_NOW_MS = '(extract(epoch from now()) * 1000)::bigint';

/** Adds a charge's words to its hold (ChargeLedger, ./ledger.ts), creating it at the first charge; the attempt takes its lease. */
const HOLD_SQL = `
INSERT INTO charge_holds AS h (id, key_id, period, charged, delivered, owner, attempt, lease_until, expires_at, body_check)
SELECT id, key_id, period, charged, 0, owner, attempt, ${STORE_NOW_MS} + lease_ms, expires_at, body_check
FROM unnest($1::text[], $2::integer[], $3::text[], $4::integer[], $5::text[], $6::text[], $7::bigint[], $8::bigint[], $9::text[])
  AS t (id, key_id, period, charged, owner, attempt, lease_ms, expires_at, body_check)
ON CONFLICT (id) DO UPDATE
  SET charged = h.charged + excluded.charged, owner = excluded.owner, attempt = excluded.attempt,
      lease_until = excluded.lease_until, expires_at = GREATEST(h.expires_at, excluded.expires_at)`;

/** Runs one group in one charge_words call; the counters of each charge, in the group's order. */
async function commitGroup(db: PgDb, group: readonly PendingCharge[]): Promise<Array<UsageCounters | null>> {
  const order = group.map((_, i) => i).sort((a, b) => group[a].request.keyId - group[b].request.keyId);
  const column = <T>(pick: (request: ChargeRequest) => T) => order.map((i) => pick(group[i].request));
  const params = [
    column((r) => r.keyId),
    column((r) => r.period),
    column((r) => r.words),
    column((r) => r.wordLimit),
    column((r) => r.callLimit),
  ];
  const counters: Array<UsageCounters | null> = new Array(group.length);
  const read = (rows: Rows) => {
    for (const row of rows) {
      const i = order[Number(row.charge_index) - 1];
      counters[i] = row.used_after === null ? null : { wordsUsed: Number(row.used_after), calls: Number(row.lifetime_calls) };
    }
  };
  if (!group.some((charge) => charge.request.hold)) {
    read((await db.$client.unsafe(CHARGE_SQL, params)) as Rows);
    return counters;
  }
  // Charges with a hold: the holds get their words in the same transaction (one more statement for the group).
  await db.$client.begin(async (tx) => {
    read((await tx.unsafe(CHARGE_SQL, params)) as Rows);
    const held = group.flatMap(({ request }, i) => (request.hold && counters[i] ? [{ request, hold: request.hold }] : []));
    if (held.length === 0) return;
    const column = <T>(pick: (entry: (typeof held)[number]) => T) => held.map(pick);
    await tx.unsafe(HOLD_SQL, [
      column((e) => e.hold.id),
      column((e) => e.request.keyId),
      column((e) => e.request.period),
      column((e) => e.request.words),
      column((e) => e.hold.owner),
      column((e) => e.hold.attempt),
      column((e) => e.hold.leaseMs),
      column((e) => e.hold.expiresAt),
      column((e) => e.hold.bodyCheck),
    ]);
  });
  return counters;
}

/** The QuotaStore of a PostgreSQL pool; `onLateCharge` gets charges that committed after their request gave up. */
export function postgresQuotaStore(db: PgDb, timeoutMs: number, onLateCharge: (request: ChargeRequest) => void): QuotaStore {
  const queue: PendingCharge[] = [];
  let scheduled = false;
  const commitQueued = () => {
    scheduled = false;
    while (queue.length > 0) {
      const group = queue.splice(0, MAX_GROUP);
      const committed = commitGroup(db, group);
      withDeadline(committed, timeoutMs, (late) => {
        // Answered 503 already: whatever was charged is given back, so a client retrying is not charged twice.
        late.forEach((counters, i) => counters && onLateCharge(group[i].request));
      }).then(
        (counters) => group.forEach((charge, i) => charge.resolve(counters[i])),
        (error) => group.forEach((charge) => charge.reject(error)),
      );
    }
  };
  return {
    read: (keyId, period, withCalls) =>
      withDeadline(
        Promise.all([
          db.$client.unsafe(MONTH_SQL, [keyId, period]) as Promise<Rows>,
          withCalls ? (db.$client.unsafe(CALLS_SQL, [keyId]) as Promise<Rows>) : Promise.resolve([{ calls: 0 }]),
        ]).then(([month, calls]) => ({ wordsUsed: Number(month[0]?.words_used ?? 0), calls: Number(calls[0]?.calls ?? 0) })),
        timeoutMs,
      ),
    periodCalls: (keyId, period) =>
      withDeadline(
        (db.$client.unsafe(PERIOD_CALLS_SQL, [keyId, period]) as Promise<Rows>).then((rows) => Number(rows[0]?.calls ?? 0)),
        timeoutMs,
      ),
    charge: (request) =>
      new Promise((resolve, reject) => {
        queue.push({ request, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(commitQueued);
        }
      }),
    async refund(keyId, period, words, calls) {
      if (words <= 0 && calls === 0) return;
      await withDeadline(db.$client.unsafe(REFUND_SQL, [keyId, period, words, calls]) as Promise<unknown>, timeoutMs);
    },
  };
}
