/** The one error mapper: every failure becomes `{ success:false, error:{code,message} }`, localized. */
import { Elysia } from 'elysia';
import { CodedError, type LabelLang, TextTooLongError } from '../contract';
import { errorMessage } from '../i18n';
import { STORE_RETRY_AFTER_SECONDS, StoreUnavailableError } from '../store/errors';
import type { ApiKey, UsageSink } from '../store/types';
import { ApiError, type ErrorBody } from './errors';
import { requestLang } from './lang';
import type { Logger } from './logger';
import { CLIENT_CLOSED_STATUS, observeRequest, type RequestFacts } from './observe';
import type { ServiceMetrics } from '../metrics/types';
import { allowedMethods, routePattern, type RouteEntry } from './routes';
import { addVary } from './vary';

/** Dependencies of the mapper; `routes` is read lazily to answer 405 with an Allow header. */
export interface ErrorMapperOptions {
  logger: Logger;
  usage: UsageSink;
  /** X-RateLimit-* headers of a key (read from the store). */
  quotaHeaders: (key: ApiKey) => Promise<Record<string, string>>;
  routes: () => readonly RouteEntry[];
  /** Counters for GET /metrics. */
  metrics?: ServiceMetrics;
}

/** Elysia's own error codes and the store's failures, translated; anything else unknown is a 500. */
function toApiError(code: string | number, error: unknown, request: Request, routes: readonly RouteEntry[], path: string): ApiError {
  if (error instanceof ApiError) return error;
  // A profile that fails as it is applied (decide/index.ts: a score that is not a number): refused, never answered.
  if (error instanceof CodedError && error.code === 'calibration_invalid') return new ApiError('calibration_invalid', error.params);
  // The engine's own check: a text within the limit as sent, past it once normalised (NFKC lengthens some characters).
  if (error instanceof TextTooLongError) return new ApiError('text_too_long', error.params);
  if (error instanceof StoreUnavailableError) {
    return new ApiError('store_unavailable', {}, { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) });
  }
  if (code === 'NOT_FOUND') {
    const allow = allowedMethods(routes, path);
    if (allow.length > 0) {
      return new ApiError('method_not_allowed', { method: request.method, path, allow: allow.join(', ') }, { allow: allow.join(', ') });
    }
    return new ApiError('not_found', { method: request.method, path });
  }
  if (code === 'PARSE') return new ApiError('invalid_json');
  if (code === 'VALIDATION') return new ApiError('invalid_request', { detail: 'the body or parameters do not match the schema' });
  return new ApiError('internal_error');
}

/** The derived context the mapper reads; absent when the failure came before the plugins ran (404). */
type ErrorContext = RequestFacts & { lang?: LabelLang };

/** Elysia plugin registering the global error mapper. */
export function errorMapper({ logger, usage, quotaHeaders, routes, metrics }: ErrorMapperOptions) {
  const observe = { usage, logger, metrics };
  return new Elysia({ name: 'error-mapper' }).onError({ as: 'global' }, async function mapError(context): Promise<ErrorBody | Response> {
    const { code, error, request, set } = context;
    const facts = context as unknown as ErrorContext;
    // The client hung up (mid-body, mid-extraction): nobody reads an answer; log it, charge and record nothing.
    if (request.signal.aborted) {
      observeRequest(observe, facts, { status: CLIENT_CLOSED_STATUS, code: 'client_closed', words: 0 });
      return new Response(null, { status: CLIENT_CLOSED_STATUS });
    }
    const apiError = toApiError(code, error, request, routes(), facts.path);
    if (apiError.code === 'internal_error') {
      // Name and stack frames only: a message could quote part of the input.
      const err = error as Error | undefined;
      logger.error('unhandled_error', { name: err?.name ?? String(code), stack: err?.stack?.split('\n').slice(1, 6).join(' | ') });
    } else if (error instanceof StoreUnavailableError) {
      logger.warn('store_unavailable', { reason: error.reason });
    }
    set.status = apiError.status;
    const key = facts.key;
    // Quota errors carry their headers; with the store down there is nothing to read; a
    // rate_limited refusal reads nothing, so a flood of them costs the store no more than its take.
    if (key && apiError.code !== 'store_unavailable' && apiError.code !== 'rate_limited' && !('x-ratelimit-limit' in apiError.headers)) {
      try {
        Object.assign(set.headers, await quotaHeaders(key));
      } catch {
        // A store failure here must not turn a client error into a 5xx; the headers are omitted.
      }
    }
    Object.assign(set.headers, apiError.headers);
    const lang = facts.lang ?? requestLang(request);
    set.headers['content-language'] ??= lang;
    set.headers.vary = addVary(set.headers.vary, 'Accept-Language');
    // A 405 is counted under the path's route pattern; Elysia names no route when none took the method.
    const route = apiError.code === 'method_not_allowed' ? (routePattern(routes(), facts.path) ?? undefined) : facts.route;
    observeRequest(observe, { ...facts, route }, { status: apiError.status, code: apiError.code });
    const message = errorMessage(lang, apiError.code, apiError.params);
    return { success: false, error: { code: apiError.code, message, ...apiError.details } };
  });
}
