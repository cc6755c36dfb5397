/** SQLite IdempotencyStore: one conditional upsert claims a row, so two processes can never both run the same request. */
import type { IdempotencyRecord, IdempotencyStore } from '../types';
import { retryBusy } from './busy';
import type { Db } from './client';
import { prepared } from './prepared';

/**
 * Inserts the row as pending; on conflict takes it over only when it has expired, or when it is a
 * pending row whose holder gave no sign of life before `locked_until` and the body is the same.
 * SQLite runs the statement under its write lock: exactly one claimant gets a row back.
 */
const CLAIM_SQL = `
INSERT INTO idempotency_records (id, body_check, state, answer, locked_until, expires_at, key_id)
VALUES ($id, $bodyCheck, 'pending', NULL, $lockedUntil, $expiresAt, $keyId)
ON CONFLICT (id) DO UPDATE
  SET body_check = excluded.body_check, state = 'pending', answer = NULL,
      locked_until = excluded.locked_until, expires_at = excluded.expires_at, key_id = excluded.key_id
  WHERE idempotency_records.expires_at <= $now
     OR (idempotency_records.state = 'pending' AND idempotency_records.locked_until <= $now
         AND idempotency_records.body_check = excluded.body_check)
RETURNING id`;

const READ_SQL = `SELECT body_check AS bodyCheck, state, answer, locked_until AS lockedUntil, expires_at AS expiresAt
  FROM idempotency_records WHERE id = $id AND expires_at > $now`;
const COMPLETE_SQL = "UPDATE idempotency_records SET state = 'done', answer = $answer WHERE id = $id";
const RELEASE_SQL = "DELETE FROM idempotency_records WHERE id = $id AND state = 'pending'";
const PURGE_SQL = 'DELETE FROM idempotency_records WHERE expires_at <= $now';
/** Rows are created in expiry order (one TTL), so the oldest are the first to expire. */
const EVICT_SQL = `DELETE FROM idempotency_records WHERE id IN (
  SELECT id FROM idempotency_records WHERE key_id = $keyId AND state = 'done'
  ORDER BY expires_at DESC, id DESC LIMIT -1 OFFSET $keep)`;

/** The IdempotencyStore of one SQLite connection. */
export function sqliteIdempotencyStore(db: Db, timeoutMs: number): IdempotencyStore {
  const run = <T>(work: () => T) => retryBusy(work, performance.now() + timeoutMs);
  const read = (id: string, now: number) => run(() => prepared<IdempotencyRecord>(db, READ_SQL).get({ id, now }) ?? null);
  return {
    async claim(claim) {
      const claimed = await run(() => prepared<{ id: string }>(db, CLAIM_SQL).get({ ...claim }));
      if (claimed) return 'claimed';
      return read(claim.id, claim.now);
    },
    read,
    async complete(id, answer) {
      await run(() => prepared(db, COMPLETE_SQL).run({ id, answer }));
    },
    async release(id) {
      await run(() => prepared(db, RELEASE_SQL).run({ id }));
    },
    purge: (now) => run(() => prepared(db, PURGE_SQL).run({ now }).changes),
    evict: (keyId, keep) => run(() => prepared(db, EVICT_SQL).run({ keyId, keep }).changes),
  };
}
