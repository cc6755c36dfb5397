/**
 * SQLite ChargeLedger (src/store/types.ts): holds of charges, settled in one transaction with their
 * refund. Leases are judged by SQLite's clock (STORE_NOW_MS): the processes sharing a SQLite file
 * run on one machine and read one clock.
 */
import type { ChargeLedger, Hold } from '../types';
import { retryBusy } from './busy';
import type { Db } from './client';
import { prepared } from './prepared';
import { REFUND_SQL, STORE_NOW_MS } from './quota';

const COLUMNS = `key_id AS keyId, period, charged, delivered, owner, attempt, lease_until AS leaseUntil, body_check AS bodyCheck`;
const READ_SQL = `SELECT ${COLUMNS} FROM charge_holds WHERE id = $id`;
const TAKE_SQL = `UPDATE charge_holds SET owner = $owner, attempt = $attempt, lease_until = ${STORE_NOW_MS} + $leaseMs WHERE id = $id`;
/** The fence: counted only under the attempt's own unexpired lease, and never beyond what the hold paid. */
const DELIVER_SQL = `UPDATE charge_holds SET delivered = MAX(delivered, $words)
  WHERE id = $id AND attempt = $attempt AND lease_until > ${STORE_NOW_MS} AND $words <= charged`;
/** A settled hold has no attempt left: a late delivery or settlement of the one that held it finds nothing. */
const SETTLE_SQL = "UPDATE charge_holds SET charged = $charged, delivered = $delivered, attempt = '' WHERE id = $id";
/** A swept hold is kept readable for `keepMs` at least, for the attempt that stalled (issue 40). */
const KEEP_SQL = `UPDATE charge_holds SET expires_at = MAX(expires_at, ${STORE_NOW_MS} + $keepMs) WHERE id = $id`;
/** Words counted for a result never sent come off the hold (never below zero). */
const UNCOUNT_SQL = 'UPDATE charge_holds SET charged = MAX(0, charged - $words), delivered = MAX(0, delivered - $words) WHERE id = $id';
const DELETE_SQL = 'DELETE FROM charge_holds WHERE id = $id';
const FINISH_SQL = `DELETE FROM charge_holds
  WHERE attempt IN (SELECT value FROM json_each($attempts)) AND lease_until > ${STORE_NOW_MS} RETURNING attempt`;
const RENEW_SQL = `UPDATE charge_holds SET lease_until = ${STORE_NOW_MS} + $leaseMs
  WHERE owner = $owner AND charged > delivered AND attempt <> '' AND lease_until > ${STORE_NOW_MS}`;
const EXPIRED_SQL = `SELECT id, ${COLUMNS} FROM charge_holds WHERE lease_until <= ${STORE_NOW_MS} AND charged > delivered`;
const PURGE_SQL = 'DELETE FROM charge_holds WHERE expires_at <= $now AND charged <= delivered';

/** The ChargeLedger of one SQLite connection. */
export function sqliteChargeLedger(db: Db, timeoutMs: number): ChargeLedger {
  const run = <T>(work: () => T) => retryBusy(work, performance.now() + timeoutMs);
  const read = (id: string) => prepared<Hold>(db, READ_SQL).get({ id }) ?? null;
  /** Gives back what `hold` charged beyond `delivered` and records it settled; the words given back. */
  const settleRow = (id: string, hold: Hold, delivered: number, keep: boolean, calls: 0 | 1) => {
    const target = Math.max(hold.delivered, delivered);
    const back = Math.max(0, hold.charged - target);
    if (back > 0 || calls > 0) prepared(db, REFUND_SQL).run({ keyId: hold.keyId, period: hold.period, words: back, calls });
    if (keep) prepared(db, SETTLE_SQL).run({ id, charged: hold.charged - back, delivered: target });
    else prepared(db, DELETE_SQL).run({ id });
    return back;
  };
  const settleNow = db.$client.transaction((id: string, attempt: string, delivered: number, keep: boolean, calls: 0 | 1) => {
    const hold = read(id);
    if (!hold || hold.attempt !== attempt || attempt === '') return 0;
    return settleRow(id, hold, delivered, keep, calls);
  });
  const sweepNow = db.$client.transaction((keepMs: number) => {
    let back = 0;
    for (const hold of prepared<Hold & { id: string }>(db, EXPIRED_SQL).all({})) {
      back += settleRow(hold.id, hold, 0, true, 0);
      prepared(db, KEEP_SQL).run({ id: hold.id, keepMs });
    }
    return back;
  });
  const giveBackNow = db.$client.transaction((id: string, keyId: number, period: string, words: number, calls: 0 | 1) => {
    prepared(db, UNCOUNT_SQL).run({ id, words });
    prepared(db, REFUND_SQL).run({ keyId, period, words, calls });
  });
  return {
    read: (id) => run(() => read(id)),
    async take(id, owner, attempt, leaseMs) {
      await run(() => prepared(db, TAKE_SQL).run({ id, owner, attempt, leaseMs }));
    },
    deliver: (id, attempt, words) =>
      run(() => (prepared(db, DELIVER_SQL).run({ id, attempt, words }).changes > 0 ? 'counted' : 'lease_lost')),
    settle: (id, attempt, delivered, { keep, calls }) => run(() => settleNow.immediate(id, attempt, delivered, keep, calls)),
    finish: (attempts) =>
      run(() =>
        prepared<{ attempt: string }>(db, FINISH_SQL)
          .all({ attempts: JSON.stringify(attempts) })
          .map((row) => row.attempt),
      ),
    async renew(owner, leaseMs) {
      await run(() => prepared(db, RENEW_SQL).run({ owner, leaseMs }));
    },
    sweep: (keepMs) => run(() => sweepNow.immediate(keepMs)),
    // SQLite's writes never reply late (a busy attempt changed nothing): `onLate` of deliver and finish is never called.
    async giveBack(id, { keyId, period, words, calls }) {
      await run(() => giveBackNow.immediate(id, keyId, period, words, calls));
    },
    purge: (now) => run(() => prepared(db, PURGE_SQL).run({ now }).changes),
  };
}
