/** SQLite ChargeLedger (src/store/types.ts): holds of charges, settled in one transaction with their refund. */
import type { ChargeLedger, Hold } from '../types';
import { retryBusy } from './busy';
import type { Db } from './client';
import { prepared } from './prepared';
import { REFUND_SQL } from './quota';

const READ_SQL = `SELECT key_id AS keyId, period, charged, delivered, owner, lease_until AS leaseUntil
  FROM charge_holds WHERE id = $id`;
const TAKE_SQL = 'UPDATE charge_holds SET owner = $owner, lease_until = $leaseUntil WHERE id = $id';
const DELIVER_SQL = 'UPDATE charge_holds SET delivered = MAX(delivered, $words) WHERE id = $id';
const SETTLE_SQL = 'UPDATE charge_holds SET charged = $charged, delivered = $delivered WHERE id = $id';
const DELETE_SQL = 'DELETE FROM charge_holds WHERE id = $id';
const FORGET_SQL = 'DELETE FROM charge_holds WHERE owner = $owner AND id IN (SELECT value FROM json_each($ids))';
const RENEW_SQL = 'UPDATE charge_holds SET lease_until = $leaseUntil WHERE owner = $owner AND charged > delivered';
const EXPIRED_SQL = `SELECT id, key_id AS keyId, period, charged, delivered, owner, lease_until AS leaseUntil
  FROM charge_holds WHERE lease_until <= $now AND charged > delivered`;
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
  const settleNow = db.$client.transaction((id: string, owner: string, delivered: number, keep: boolean, calls: 0 | 1) => {
    const hold = read(id);
    if (!hold || hold.owner !== owner) return 0;
    return settleRow(id, hold, delivered, keep, calls);
  });
  const sweepNow = db.$client.transaction((now: number) => {
    let back = 0;
    for (const hold of prepared<Hold & { id: string }>(db, EXPIRED_SQL).all({ now })) back += settleRow(hold.id, hold, 0, true, 0);
    return back;
  });
  return {
    read: (id) => run(() => read(id)),
    async take(id, owner, leaseUntil) {
      await run(() => prepared(db, TAKE_SQL).run({ id, owner, leaseUntil }));
    },
    async deliver(id, words) {
      await run(() => prepared(db, DELIVER_SQL).run({ id, words }));
    },
    settle: (id, owner, delivered, { keep, calls }) => run(() => settleNow.immediate(id, owner, delivered, keep, calls)),
    async forget(owner, ids) {
      await run(() => prepared(db, FORGET_SQL).run({ owner, ids: JSON.stringify(ids) }));
    },
    async renew(owner, leaseUntil) {
      await run(() => prepared(db, RENEW_SQL).run({ owner, leaseUntil }));
    },
    sweep: (now) => run(() => sweepNow.immediate(now)),
    purge: (now) => run(() => prepared(db, PURGE_SQL).run({ now }).changes),
  };
}
