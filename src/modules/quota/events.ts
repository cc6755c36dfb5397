/** usage_events: one metadata row per authenticated request (never the text). */
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import type { NewUsageEvent } from '../../db/schema';

const INSERT_SQL = `INSERT INTO usage_events (key_id, mode, words, score, status, error_code, duration_ms, created_at)
  VALUES ($keyId, $mode, $words, $score, $status, $errorCode, $durationMs, $createdAt)`;

/** Inserts one usage event (key id, mode, words, score, status, error code, duration, time). */
export function recordUsage(db: Db, event: NewUsageEvent): void {
  prepared(db, INSERT_SQL).run({
    keyId: event.keyId,
    mode: event.mode,
    words: event.words ?? 0,
    score: event.score ?? null,
    status: event.status,
    errorCode: event.errorCode ?? null,
    durationMs: event.durationMs,
    createdAt: event.createdAt,
  });
}
