/** End-of-request bookkeeping shared by success and error paths: usage event + one log line. */
import type { Db } from '../db/client';
import { recordUsage } from '../modules/quota';
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
    try {
      recordUsage(deps.db, {
        keyId: ctx.key.id,
        mode: outcome.mode ?? 'single',
        words,
        score: outcome.score ?? null,
        status: outcome.status,
        errorCode: outcome.code ?? null,
        durationMs,
        createdAt: now,
      });
    } catch (error) {
      // A failed bookkeeping write must not fail a request that was already served (and charged).
      deps.logger.error('usage_record_failed', { name: (error as Error)?.name ?? 'Error', keyId: ctx.key.id });
    }
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
