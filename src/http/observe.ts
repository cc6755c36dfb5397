/**
 * End-of-request bookkeeping shared by success and error paths: one usage event, one log line
 * and the metrics. The one place every finished request passes through.
 */
import { Elysia } from 'elysia';
import type { ServiceMetrics } from '../metrics/types';
import type { ApiKey, UsageSink } from '../store/types';
import type { Logger } from './logger';
import { requestIdOf } from './request-id';

/** Status logged when the client went away before its answer (nginx's "client closed request"); never sent. */
export const CLIENT_CLOSED_STATUS = 499;

/** Route label of requests no route matched: a raw path would give metrics one series per URL anyone sends. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Methods counted by name in the metrics; any other is counted as OTHER (a method is any token a client sends). */
const COUNTED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * What the hooks know about a request: Elysia's context (`path`, `route`, and `key`,
 * `startedAt`, `words` derived by the plugins).
 */
export interface RequestFacts {
  request: Request;
  path: string;
  /** The matched route's pattern (Elysia's `route`); absent when no route matched. */
  route?: string;
  key?: ApiKey | null;
  startedAt?: number;
  words?: number;
  /** Elysia's `set`: its headers carry the request id (request-id.ts). */
  set?: { headers: Record<string, unknown> };
}

/** What is known about a finished request; never includes submitted text. */
export interface RequestOutcome {
  status: number;
  mode?: 'single' | 'batch';
  code?: string | null;
  score?: number | null;
  words?: number;
  /** True when the answer was replayed for an Idempotency-Key (nothing ran or was charged): logged. */
  replayed?: boolean;
  /** False for answers that are no detection (GET /v1/usage): logged and counted, but no usage event (its `mode` would lie). */
  recordUsage?: boolean;
}

/** Where observeRequest writes. */
export interface ObserveDeps {
  usage: UsageSink;
  logger: Logger;
  /** Counters for GET /metrics (absent: nothing is counted). */
  metrics?: ServiceMetrics;
}

/**
 * Records a usage event (when a key was authenticated), logs metadata and counts the request;
 * never throws. A client that went away without being charged leaves no usage event: it is
 * logged (499 client_closed) but is no request of the key's.
 */
export function observeRequest(deps: ObserveDeps, facts: RequestFacts, outcome: RequestOutcome): void {
  const durationMs = facts.startedAt === undefined ? 0 : Math.round((performance.now() - facts.startedAt) * 1000) / 1000;
  const words = outcome.words ?? facts.words ?? 0;
  const key = facts.key ?? null;
  if (key && outcome.recordUsage !== false && !(outcome.status === CLIENT_CLOSED_STATUS && words === 0)) {
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
    requestId: requestIdOf(facts.request, facts.set?.headers),
    method: facts.request.method,
    path: facts.path,
    status: outcome.status,
    code: outcome.code ?? undefined,
    keyId: key?.id ?? null,
    words,
    score: outcome.score ?? undefined,
    replayed: outcome.replayed || undefined,
    durationMs,
  });
  const method = facts.request.method;
  deps.metrics?.request({
    route: facts.route || UNMATCHED_ROUTE,
    method: COUNTED_METHODS.has(method) ? method : 'OTHER',
    status: outcome.status,
    durationSeconds: durationMs / 1000,
    mode: outcome.mode,
    // Words of texts that were analysed and handed over: a 200 of single mode, or what a batch delivered (even if cut short).
    analysedWords: outcome.status === 200 || outcome.mode === 'batch' ? (outcome.words ?? 0) : 0,
    code: outcome.code ?? null,
  });
}

/** Options of observePlugin. */
export interface ObservePluginOptions {
  observe: ObserveDeps;
  /** "METHOD /route" pairs whose handlers call observeRequest themselves (POST /api/detect: its outcome has words and a score). */
  selfObserved: readonly string[];
}

/**
 * Elysia plugin: observes every request the other routes answer without an error (GET /health,
 * the pages, the documents, /metrics). Errors are observed by the error mapper.
 */
export function observePlugin({ observe, selfObserved }: ObservePluginOptions) {
  const skip = new Set(selfObserved);
  return new Elysia({ name: 'observe' }).onAfterHandle({ as: 'global' }, function observeAnswer(context) {
    const facts = context as unknown as RequestFacts;
    if (skip.has(`${facts.request.method} ${facts.route}`)) return;
    const { response, set } = context;
    const status = response instanceof Response ? response.status : typeof set.status === 'number' ? set.status : 200;
    // The routes observed here are no detections: a key they carry (GET /v1/usage) gets no usage event.
    observeRequest(observe, facts, { status, recordUsage: false });
  });
}
