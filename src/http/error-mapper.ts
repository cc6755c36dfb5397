/** The one error mapper: every failure becomes `{ success:false, error:{code,message} }`, localized. */
import { Elysia } from 'elysia';
import type { Db } from '../db/client';
import { t } from '../i18n';
import { getQuotaState, rateLimitHeaders } from '../modules/quota';
import { contextOf } from './context';
import { ApiError, type ErrorBody } from './errors';
import type { Logger } from './logger';
import { observeRequest } from './observe';
import { allowedMethods, type RouteEntry } from './routes';

/** Dependencies of the mapper; `routes` is read lazily to answer 405 with an Allow header. */
export interface ErrorMapperOptions {
  db: Db;
  logger: Logger;
  routes: () => readonly RouteEntry[];
}

/** Elysia's own error codes we translate; anything else unknown is a 500. */
function toApiError(
  code: string | number,
  error: unknown,
  request: Request,
  routes: readonly RouteEntry[],
  path: string,
): ApiError {
  if (error instanceof ApiError) return error;
  if (code === 'NOT_FOUND') {
    const allow = allowedMethods(routes, path);
    if (allow.length > 0) {
      return new ApiError(
        'method_not_allowed',
        { method: request.method, path, allow: allow.join(', ') },
        { allow: allow.join(', ') },
      );
    }
    return new ApiError('not_found', { method: request.method, path });
  }
  if (code === 'PARSE') return new ApiError('invalid_json');
  if (code === 'VALIDATION') return new ApiError('invalid_request', { detail: 'the body or parameters do not match the schema' });
  return new ApiError('internal_error');
}

/** Elysia plugin registering the global error mapper. */
export function errorMapper({ db, logger, routes }: ErrorMapperOptions) {
  return new Elysia({ name: 'error-mapper' }).onError(
    { as: 'global' },
    function mapError({ code, error, request, set }): ErrorBody {
      const ctx = contextOf(request);
      const apiError = toApiError(code, error, request, routes(), ctx.path);
      if (apiError.code === 'internal_error') {
        // Name and stack frames only: a message could quote part of the input.
        const err = error as Error | undefined;
        logger.error('unhandled_error', {
          name: err?.name ?? String(code),
          stack: err?.stack?.split('\n').slice(1, 6).join(' | '),
        });
      }
      set.status = apiError.status;
      try {
        if (ctx.key) Object.assign(set.headers, rateLimitHeaders(getQuotaState(db, ctx.key)));
      } catch {
        // A database failure here must not turn a client error into a 500; the headers are omitted.
      }
      Object.assign(set.headers, apiError.headers);
      observeRequest({ db, logger }, request, { status: apiError.status, code: apiError.code });
      return { success: false, error: { code: apiError.code, message: t(ctx.lang, `errors.${apiError.code}`, apiError.params) } };
    },
  );
}
