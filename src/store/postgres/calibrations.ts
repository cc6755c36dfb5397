/** PostgreSQL CalibrationRows: the same statements as SQLite's, every one scoped to its key. */
import { withDeadline } from '../deadline';
import type { CalibrationRecord, CalibrationRows, InsertOutcome } from '../types';
import type { PgDb } from './client';
import { STORE_NOW_MS } from './quota';

const RECORD_COLUMNS = 'id, key_id, name, model_version, created_at, summary';
const INSERT_SQL = `INSERT INTO calibrations (id, key_id, name, model_version, created_at, summary, profile)
  VALUES ($1::text, $2::integer, $3::text, $4::text, $5::bigint, $6::text, $7::text)`;
const LIST_SQL = `SELECT ${RECORD_COLUMNS} FROM calibrations WHERE key_id = $1::integer ORDER BY created_at DESC, id DESC`;
const COUNT_SQL = 'SELECT count(*) AS n FROM calibrations WHERE key_id = $1::integer';
const GET_SQL = `SELECT ${RECORD_COLUMNS} FROM calibrations WHERE id = $1::text AND key_id = $2::integer`;
const EXISTS_SQL = 'SELECT 1 FROM calibrations WHERE id = $1::text AND key_id = $2::integer';
const PROFILE_SQL = 'SELECT profile FROM calibrations WHERE id = $1::text AND key_id = $2::integer';
const REMOVE_SQL = 'DELETE FROM calibrations WHERE id = $1::text AND key_id = $2::integer RETURNING 1';
/**
 * Inserts of one key's profiles queue behind this transaction-scoped lock (namespace, key id), so
 * the count each one reads includes every profile committed before it: concurrent inserts on any
 * instance never pass the limit (issue 40: 100 at once left 55).
 */
const KEY_LOCK_SQL = 'SELECT pg_advisory_xact_lock($1::integer, $2::integer)';
/** The advisory lock namespace of the calibrations ("cal1"); two-key locks never meet the migration's one-key lock. */
const CALIBRATION_LOCK_NAMESPACE = 0x63616c31;
/** The hold paying for the profile, finished under its attempt's unexpired lease (ChargeLedger's fence). */
const FINISH_HOLD_SQL = `DELETE FROM charge_holds WHERE id = $1::text AND attempt = $2::text AND attempt <> '' AND lease_until > ${STORE_NOW_MS} RETURNING 1`;

type Rows = Array<Record<string, unknown>>;

/** bigint columns arrive as strings from a raw query (STACK_NOTES). */
function toRecord(row: Record<string, unknown>): CalibrationRecord {
  return {
    id: String(row.id),
    keyId: Number(row.key_id),
    name: String(row.name),
    modelVersion: String(row.model_version),
    createdAt: Number(row.created_at),
    summary: String(row.summary),
  };
}

/** The calibration rows of a PostgreSQL pool (uncached: src/store/calibration-cache.ts wraps it). */
export function postgresCalibrationStore(db: PgDb, timeoutMs: number): CalibrationRows {
  const query = (sql: string, params: unknown[]) => withDeadline(db.$client.unsafe(sql, params) as Promise<Rows>, timeoutMs);
  return {
    insert: (c, { limit, hold } = {}) =>
      withDeadline(
        db.$client.begin(async (tx): Promise<InsertOutcome> => {
          const run = (sql: string, params: unknown[]) => tx.unsafe(sql, params) as Promise<Rows>;
          if (limit !== undefined) {
            await run(KEY_LOCK_SQL, [CALIBRATION_LOCK_NAMESPACE, c.keyId]);
            if (Number((await run(COUNT_SQL, [c.keyId]))[0]?.n ?? 0) >= limit) return 'limit_reached';
          }
          // Nothing is written before this: a lost lease leaves the transaction with nothing to undo.
          if (hold && (await run(FINISH_HOLD_SQL, [hold.id, hold.attempt])).length === 0) return 'lease_lost';
          await run(INSERT_SQL, [c.id, c.keyId, c.name, c.modelVersion, c.createdAt, c.summary, c.profile]);
          return 'stored';
        }) as Promise<InsertOutcome>,
        timeoutMs,
      ),
    list: async (keyId) => (await query(LIST_SQL, [keyId])).map(toRecord),
    count: async (keyId) => Number((await query(COUNT_SQL, [keyId]))[0]?.n ?? 0),
    async get(keyId, id) {
      const row = (await query(GET_SQL, [id, keyId]))[0];
      return row ? toRecord(row) : null;
    },
    exists: async (keyId, id) => (await query(EXISTS_SQL, [id, keyId])).length > 0,
    async read(keyId, id) {
      const row = (await query(PROFILE_SQL, [id, keyId]))[0];
      return row ? String(row.profile) : null;
    },
    remove: async (keyId, id) => (await query(REMOVE_SQL, [id, keyId])).length > 0,
  };
}
