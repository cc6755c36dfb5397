/** End-of-request bookkeeping shared by success and error paths: usage event + one log line. */
import type { Db } from '../db/client';
import { queueUsage } from '../modules/quota';
import { contextOf } from './context';
import type { Logger } from './logger';

/** What is known about a finished request; never includes submitted text. */
export interface RequestOutcome {
  status: number;
  mode?: 'single' | 'batch';
  code?: string | null;
  score?: number | null;
  words?: number;
}

/** Records a usage event (when a key was authenticated) and logs metadata for the request; never throws. */
export function observeRequest(deps: { db: Db; logger: Logger }, request: Request, outcome: RequestOutcome): void {
  const ctx = contextOf(request);
  const durationMs = Math.round((performance.now() - ctx.startedAt) * 1000) / 1000;
  const words = outcome.words ?? ctx.words;
  const now = Date.now();
  if (ctx.key) {
    const keyId = ctx.key.id;
    // A failed bookkeeping write must not fail a request that was already served (and charged).
    const onError = (error: unknown, lost: number) =>
      deps.logger.error('usage_record_failed', { name: (error as Error)?.name ?? 'Error', keyId, lost });
    queueUsage(
      deps.db,
      {
        keyId,
        mode: outcome.mode ?? 'single',
        words,
        score: outcome.score ?? null,
        status: outcome.status,
        errorCode: outcome.code ?? null,
        durationMs,
        createdAt: now,
      },
      onError,
    );
  }
  deps.logger.info('request', {
    method: request.method,
    path: ctx.path,
    status: outcome.status,
    code: outcome.code ?? undefined,
    keyId: ctx.key?.id ?? null,
    words,
    score: outcome.score ?? undefined,
    durationMs,
  });
}
