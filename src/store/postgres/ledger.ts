/**
 * PostgreSQL ChargeLedger (src/store/types.ts), shared by every instance: a hold is settled with
 * its refund in one transaction, its row locked (FOR UPDATE), so two instances sweeping at once,
 * or a sweep racing the holder's own settlement, give the words back once.
 */
import { withDeadline } from '../deadline';
import type { ChargeLedger, Hold } from '../types';
import type { PgDb } from './client';
import { REFUND_SQL } from './quota';

const COLUMNS = 'id, key_id, period, charged, delivered, owner, lease_until';
const READ_SQL = `SELECT ${COLUMNS} FROM charge_holds WHERE id = $1::text`;
const LOCK_SQL = `SELECT ${COLUMNS} FROM charge_holds WHERE id = $1::text FOR UPDATE`;
const TAKE_SQL = 'UPDATE charge_holds SET owner = $2::text, lease_until = $3::bigint WHERE id = $1::text';
const DELIVER_SQL = 'UPDATE charge_holds SET delivered = GREATEST(delivered, $2::integer) WHERE id = $1::text';
const SETTLE_SQL = 'UPDATE charge_holds SET charged = $2::integer, delivered = $3::integer WHERE id = $1::text';
const DELETE_SQL = 'DELETE FROM charge_holds WHERE id = $1::text';
const FORGET_SQL = 'DELETE FROM charge_holds WHERE owner = $1::text AND id = ANY($2::text[])';
const RENEW_SQL = 'UPDATE charge_holds SET lease_until = $2::bigint WHERE owner = $1::text AND charged > delivered';
const EXPIRED_SQL = `SELECT ${COLUMNS} FROM charge_holds WHERE lease_until <= $1::bigint AND charged > delivered
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
    leaseUntil: Number(row.lease_until),
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
    async take(id, owner, leaseUntil) {
      await deadline(query(TAKE_SQL, [id, owner, leaseUntil]));
    },
    async deliver(id, words) {
      await deadline(query(DELIVER_SQL, [id, words]));
    },
    settle: (id, owner, delivered, { keep, calls }) =>
      inTransaction(async (tx) => {
        const hold = toHold((await tx(LOCK_SQL, [id]))[0]);
        if (!hold || hold.owner !== owner) return 0;
        return settleRow(tx, id, hold, delivered, keep, calls);
      }),
    async forget(owner, ids) {
      await deadline(query(FORGET_SQL, [owner, [...ids]]));
    },
    async renew(owner, leaseUntil) {
      await deadline(query(RENEW_SQL, [owner, leaseUntil]));
    },
    sweep: (now) =>
      inTransaction(async (tx) => {
        let back = 0;
        for (const row of await tx(EXPIRED_SQL, [now])) back += await settleRow(tx, String(row.id), toHold(row)!, 0, true, 0);
        return back;
      }),
    purge: async (now) => (await deadline(query(PURGE_SQL, [now]))).length,
  };
}
