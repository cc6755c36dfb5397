/**
 * End-of-request bookkeeping shared by success and error paths: one usage event and one log
 * line. The one place every finished request passes through (a metrics counter belongs here).
 */
import type { ApiKey, UsageSink } from '../store/types';
import type { Logger } from './logger';

/** Status logged when the client went away before its answer (nginx's "client closed request"); never sent. */
export const CLIENT_CLOSED_STATUS = 499;

/** What the hooks know about a request: Elysia's context (`path`, and `key`, `startedAt`, `words` derived by the plugins). */
export interface RequestFacts {
  request: Request;
  path: string;
  key?: ApiKey | null;
  startedAt?: number;
  words?: number;
}

/** What is known about a finished request; never includes submitted text. */
export interface RequestOutcome {
  status: number;
  mode?: 'single' | 'batch';
  code?: string | null;
  score?: number | null;
  words?: number;
}

/** Where observeRequest writes. */
export interface ObserveDeps {
  usage: UsageSink;
  logger: Logger;
}

/**
 * Records a usage event (when a key was authenticated) and logs metadata; never throws. A client
 * that went away without being charged leaves no usage event: it is logged (499 client_closed)
 * but is no request of the key's.
 */
export function observeRequest(deps: ObserveDeps, facts: RequestFacts, outcome: RequestOutcome): void {
  const durationMs = facts.startedAt === undefined ? 0 : Math.round((performance.now() - facts.startedAt) * 1000) / 1000;
  const words = outcome.words ?? facts.words ?? 0;
  const key = facts.key ?? null;
  if (key && !(outcome.status === CLIENT_CLOSED_STATUS && words === 0)) {
    deps.usage.record({
      keyId: key.id,
      mode: outcome.mode ?? 'single',
      words,
      score: outcome.score ?? null,
      status: outcome.status,
      errorCode: outcome.code ?? null,
      durationMs,
      createdAt: Date.now(),
    });
  }
  deps.logger.info('request', {
    method: facts.request.method,
    path: facts.path,
    status: outcome.status,
    code: outcome.code ?? undefined,
    keyId: key?.id ?? null,
    words,
    score: outcome.score ?? undefined,
    durationMs,
  });
}
