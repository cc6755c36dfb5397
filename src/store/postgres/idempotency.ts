/**
 * PostgreSQL IdempotencyStore, shared by every instance: one conditional upsert claims a row. Under
 * READ COMMITTED a concurrent insert of the same id makes the second wait for the first's commit
 * and then re-check the conflict's WHERE against the committed row, so exactly one instance runs
 * the request and the others see it pending (or done).
 */
import { withDeadline } from '../deadline';
import type { IdempotencyRecord, IdempotencyStore } from '../types';
import type { PgDb } from './client';

const CLAIM_SQL = `
INSERT INTO idempotency_records AS r (id, body_check, state, answer, locked_until, expires_at, key_id)
VALUES ($1::text, $2::text, 'pending', NULL, $4::bigint, $5::bigint, $6::integer)
ON CONFLICT (id) DO UPDATE
  SET body_check = excluded.body_check, state = 'pending', answer = NULL,
      locked_until = excluded.locked_until, expires_at = excluded.expires_at, key_id = excluded.key_id
  WHERE r.expires_at <= $3::bigint
     OR (r.state = 'pending' AND r.locked_until <= $3::bigint AND r.body_check = excluded.body_check)
RETURNING id`;

const READ_SQL = `SELECT body_check, state, answer, locked_until, expires_at
  FROM idempotency_records WHERE id = $1::text AND expires_at > $2::bigint`;
const COMPLETE_SQL = "UPDATE idempotency_records SET state = 'done', answer = $2::text WHERE id = $1::text";
const RELEASE_SQL = "DELETE FROM idempotency_records WHERE id = $1::text AND state = 'pending'";
const PURGE_SQL = 'DELETE FROM idempotency_records WHERE expires_at <= $1::bigint RETURNING 1';
/** Rows are created in expiry order (one TTL), so the oldest are the first to expire. */
const EVICT_SQL = `DELETE FROM idempotency_records WHERE id IN (
  SELECT id FROM idempotency_records WHERE key_id = $1::integer AND state = 'done'
  ORDER BY expires_at DESC, id DESC OFFSET $2::integer) RETURNING 1`;

type Rows = Array<Record<string, unknown>>;

function toRecord(row: Record<string, unknown> | undefined): IdempotencyRecord | null {
  if (!row) return null;
  return {
    bodyCheck: String(row.body_check),
    state: row.state === 'done' ? 'done' : 'pending',
    answer: row.answer === null ? null : String(row.answer),
    // bigint columns come back as strings (STACK_NOTES).
    lockedUntil: Number(row.locked_until),
    expiresAt: Number(row.expires_at),
  };
}

/** The IdempotencyStore of a PostgreSQL pool. */
export function postgresIdempotencyStore(db: PgDb, timeoutMs: number): IdempotencyStore {
  const query = (sql: string, params: unknown[]) => withDeadline(db.$client.unsafe(sql, params) as Promise<Rows>, timeoutMs);
  const read = async (id: string, now: number) => toRecord((await query(READ_SQL, [id, now]))[0]);
  return {
    async claim({ id, bodyCheck, now, lockedUntil, expiresAt, keyId }) {
      const claimed = await query(CLAIM_SQL, [id, bodyCheck, now, lockedUntil, expiresAt, keyId]);
      if (claimed.length > 0) return 'claimed';
      return read(id, now);
    },
    read,
    async complete(id, answer) {
      await query(COMPLETE_SQL, [id, answer]);
    },
    async release(id) {
      await query(RELEASE_SQL, [id]);
    },
    purge: async (now) => (await query(PURGE_SQL, [now])).length,
    evict: async (keyId, keep) => (await query(EVICT_SQL, [keyId, keep])).length,
  };
}
