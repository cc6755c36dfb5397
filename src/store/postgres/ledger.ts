/**
 * PostgreSQL ChargeLedger (src/store/types.ts), shared by every instance: a hold is settled with
 * its refund in one transaction, its row locked (FOR UPDATE), so two instances sweeping at once,
 * or a sweep racing the holder's own settlement, give the words back once. Leases are judged by
 * PostgreSQL's clock (STORE_NOW_MS), never an instance's: one whose clock is off sweeps nobody early.
 */
import { withDeadline } from '../deadline';
import type { ChargeLedger, Hold } from '../types';
import type { PgDb } from './client';
import { REFUND_SQL, STORE_NOW_MS } from './quota';

const COLUMNS = 'id, key_id, period, charged, delivered, owner, attempt, lease_until, body_check';
const READ_SQL = `SELECT ${COLUMNS} FROM charge_holds WHERE id = $1::text`;
const LOCK_SQL = `SELECT ${COLUMNS} FROM charge_holds WHERE id = $1::text FOR UPDATE`;
const TAKE_SQL = `UPDATE charge_holds SET owner = $2::text, attempt = $3::text, lease_until = ${STORE_NOW_MS} + $4::bigint WHERE id = $1::text`;
/** The fence: counted only under the attempt's own unexpired lease, and never beyond what the hold paid. */
const DELIVER_SQL = `UPDATE charge_holds SET delivered = GREATEST(delivered, $3::integer)
  WHERE id = $1::text AND attempt = $2::text AND lease_until > ${STORE_NOW_MS} AND $3::integer <= charged RETURNING 1`;
/** A settled hold has no attempt left: a late delivery or settlement of the one that held it finds nothing. */
const SETTLE_SQL = "UPDATE charge_holds SET charged = $2::integer, delivered = $3::integer, attempt = '' WHERE id = $1::text";
/** A swept hold is kept readable for `keepMs` at least, for the attempt that stalled (issue 40). */
const KEEP_SQL = `UPDATE charge_holds SET expires_at = GREATEST(expires_at, ${STORE_NOW_MS} + $2::bigint) WHERE id = $1::text`;
/** Words counted for a result never sent come off the hold (never below zero). */
const UNCOUNT_SQL =
  'UPDATE charge_holds SET charged = GREATEST(0, charged - $2::integer), delivered = GREATEST(0, delivered - $2::integer) WHERE id = $1::text';
const DELETE_SQL = 'DELETE FROM charge_holds WHERE id = $1::text';
const FINISH_SQL = `DELETE FROM charge_holds WHERE attempt = ANY($1::text[]) AND lease_until > ${STORE_NOW_MS} RETURNING attempt`;
const RENEW_SQL = `UPDATE charge_holds SET lease_until = ${STORE_NOW_MS} + $2::bigint
  WHERE owner = $1::text AND charged > delivered AND attempt <> '' AND lease_until > ${STORE_NOW_MS}`;
const EXPIRED_SQL = `SELECT ${COLUMNS} FROM charge_holds WHERE lease_until <= ${STORE_NOW_MS} AND charged > delivered
  ORDER BY id FOR UPDATE SKIP LOCKED`;
const PURGE_SQL = 'DELETE FROM charge_holds WHERE expires_at <= $1::bigint AND charged <= delivered RETURNING 1';

type Row = Record<string, unknown>;
type Query = (sql: string, params: unknown[]) => Promise<Row[]>;

function toHold(row: Row | undefined): Hold | null {
  if (!row) return null;
  // bigint columns come back as strings (STACK_NOTES).
  return {
    keyId: Number(row.key_id),
    period: String(row.period),
    charged: Number(row.charged),
    delivered: Number(row.delivered),
    owner: String(row.owner),
    attempt: String(row.attempt),
    leaseUntil: Number(row.lease_until),
    bodyCheck: row.body_check === null ? null : String(row.body_check),
  };
}

/** Gives back what `hold` charged beyond `delivered` and records it settled, inside a transaction; the words given back. */
async function settleRow(query: Query, id: string, hold: Hold, delivered: number, keep: boolean, calls: 0 | 1): Promise<number> {
  const target = Math.max(hold.delivered, delivered);
  const back = Math.max(0, hold.charged - target);
  if (back > 0 || calls > 0) await query(REFUND_SQL, [hold.keyId, hold.period, back, calls]);
  if (keep) await query(SETTLE_SQL, [id, hold.charged - back, target]);
  else await query(DELETE_SQL, [id]);
  return back;
}

/** The ChargeLedger of a PostgreSQL pool. */
export function postgresChargeLedger(db: PgDb, timeoutMs: number): ChargeLedger {
  const query: Query = (sql, params) => db.$client.unsafe(sql, params) as Promise<Row[]>;
  const deadline = <T>(work: Promise<T>) => withDeadline(work, timeoutMs);
  const inTransaction = <T>(work: (tx: Query) => Promise<T>) =>
    deadline(db.$client.begin((tx) => work((sql, params) => tx.unsafe(sql, params) as Promise<Row[]>)) as Promise<T>);
  return {
    read: async (id) => toHold((await deadline(query(READ_SQL, [id])))[0]),
    async take(id, owner, attempt, leaseMs) {
      await deadline(query(TAKE_SQL, [id, owner, attempt, leaseMs]));
    },
    deliver: async (id, attempt, words, onLate) => {
      const counted = (rows: Row[]) => (rows.length > 0 ? 'counted' : 'lease_lost');
      const rows = await withDeadline(query(DELIVER_SQL, [id, attempt, words]), timeoutMs, (late) => onLate?.(counted(late)));
      return counted(rows);
    },
    settle: (id, attempt, delivered, { keep, calls }) =>
      inTransaction(async (tx) => {
        const hold = toHold((await tx(LOCK_SQL, [id]))[0]);
        if (!hold || hold.attempt !== attempt || attempt === '') return 0;
        return settleRow(tx, id, hold, delivered, keep, calls);
      }),
    finish: async (attempts, onLate) => {
      const finished = (rows: Row[]) => rows.map((row) => String(row.attempt));
      return finished(await withDeadline(query(FINISH_SQL, [[...attempts]]), timeoutMs, (late) => onLate?.(finished(late))));
    },
    async renew(owner, leaseMs) {
      await deadline(query(RENEW_SQL, [owner, leaseMs]));
    },
    sweep: (keepMs) =>
      inTransaction(async (tx) => {
        let back = 0;
        for (const row of await tx(EXPIRED_SQL, [])) {
          back += await settleRow(tx, String(row.id), toHold(row)!, 0, true, 0);
          await tx(KEEP_SQL, [row.id, keepMs]);
        }
        return back;
      }),
    giveBack: (id, { keyId, period, words, calls }) =>
      inTransaction(async (tx) => {
        // The hold's row first, then the month's, as a settlement locks them (the other order deadlocked with it).
        await tx(UNCOUNT_SQL, [id, words]);
        await tx(REFUND_SQL, [keyId, period, words, calls]);
      }),
    purge: async (now) => (await deadline(query(PURGE_SQL, [now]))).length,
  };
}
