/** SQLite CalibrationRows: one row per profile, every statement scoped to its key. */
import type { CalibrationRecord, CalibrationRows, HoldFence, InsertOutcome, NewCalibration } from '../types';
import { retryBusy } from './busy';
import type { Db } from './client';
import { prepared } from './prepared';
import { STORE_NOW_MS } from './quota';

const RECORD_COLUMNS = 'id, key_id AS keyId, name, model_version AS modelVersion, created_at AS createdAt, summary';
const INSERT_SQL = `INSERT INTO calibrations (id, key_id, name, model_version, created_at, summary, profile)
  VALUES ($id, $keyId, $name, $modelVersion, $createdAt, $summary, $profile)`;
const LIST_SQL = `SELECT ${RECORD_COLUMNS} FROM calibrations WHERE key_id = $keyId ORDER BY created_at DESC, id DESC`;
const COUNT_SQL = 'SELECT count(*) AS n FROM calibrations WHERE key_id = $keyId';
const GET_SQL = `SELECT ${RECORD_COLUMNS} FROM calibrations WHERE id = $id AND key_id = $keyId`;
const EXISTS_SQL = 'SELECT 1 AS found FROM calibrations WHERE id = $id AND key_id = $keyId';
const PROFILE_SQL = 'SELECT profile FROM calibrations WHERE id = $id AND key_id = $keyId';
const REMOVE_SQL = 'DELETE FROM calibrations WHERE id = $id AND key_id = $keyId';
/** The hold paying for the profile, finished under its attempt's unexpired lease (ChargeLedger's fence). */
const FINISH_HOLD_SQL = `DELETE FROM charge_holds WHERE id = $id AND attempt = $attempt AND attempt <> '' AND lease_until > ${STORE_NOW_MS}`;

/** The calibration rows of one SQLite connection (uncached: src/store/calibration-cache.ts wraps it). */
export function sqliteCalibrationStore(db: Db, timeoutMs: number): CalibrationRows {
  const run = <T>(work: () => T) => retryBusy(work, performance.now() + timeoutMs);
  // One write transaction (BEGIN IMMEDIATE): every process sharing the file sees the count and the hold as they are.
  const insertNow = db.$client.transaction((row: NewCalibration, limit: number | null, hold: HoldFence | null): InsertOutcome => {
    if (limit !== null && (prepared<{ n: number }>(db, COUNT_SQL).get({ keyId: row.keyId })?.n ?? 0) >= limit) return 'limit_reached';
    if (hold && prepared(db, FINISH_HOLD_SQL).run({ id: hold.id, attempt: hold.attempt }).changes === 0) return 'lease_lost';
    prepared(db, INSERT_SQL).run({ ...row });
    return 'stored';
  });
  return {
    insert: (calibration, { limit, hold } = {}) => run(() => insertNow.immediate(calibration, limit ?? null, hold ?? null)),
    list: (keyId) => run(() => prepared<CalibrationRecord>(db, LIST_SQL).all({ keyId })),
    count: (keyId) => run(() => prepared<{ n: number }>(db, COUNT_SQL).get({ keyId })?.n ?? 0),
    get: (keyId, id) => run(() => prepared<CalibrationRecord>(db, GET_SQL).get({ id, keyId }) ?? null),
    exists: (keyId, id) => run(() => prepared(db, EXISTS_SQL).get({ id, keyId }) !== null),
    async read(keyId, id) {
      const row = await run(() => prepared<{ profile: string }>(db, PROFILE_SQL).get({ id, keyId }));
      return row ? row.profile : null;
    },
    remove: (keyId, id) => run(() => prepared(db, REMOVE_SQL).run({ id, keyId }).changes > 0),
  };
}
