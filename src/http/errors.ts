/** The one error hierarchy of the API: a stable snake_case `code`, an HTTP `status`, message params. */
import { t, type Static } from 'elysia';
import { CodedError, type ErrorParams } from '../contract/errors';
import { keysOf, StringEnum } from './schema';

/** Every error code a client can receive, with its HTTP status. */
export const ERROR_STATUS = {
  missing_api_key: 401,
  invalid_api_key: 401,
  invalid_json: 400,
  invalid_request: 400,
  text_required: 400,
  text_too_short: 400,
  invalid_sensitivity: 400,
  /** Idempotency-Key is not 1-255 visible ASCII characters. */
  invalid_idempotency_key: 400,
  not_found: 404,
  method_not_allowed: 405,
  /** The Idempotency-Key's first request is still running (after waiting for it); sent with Retry-After. */
  idempotency_request_in_progress: 409,
  payload_too_large: 413,
  too_many_files: 413,
  /** More sentences than a text of its length may have (src/extract/sentences.ts): too costly to score. */
  too_many_sentences: 413,
  unsupported_media_type: 415,
  /** The Idempotency-Key was used with another body (RFC draft httpapi-idempotency-key-header: 422). */
  idempotency_key_reused: 422,
  quota_exceeded: 429,
  trial_calls_exhausted: 429,
  /** Logged only: the client went away before its answer (nginx's convention); never sent. */
  client_closed: 499,
  internal_error: 500,
  /** The key/quota store is locked or unreachable; sent with Retry-After. */
  store_unavailable: 503,
} as const;

/** A stable, documented error code. */
export type ErrorCode = keyof typeof ERROR_STATUS;

export type { ErrorParams } from '../contract/errors';

/** An error a client caused (or 500): mapped once to `{ success:false, error:{code,message} }`. */
export class ApiError extends CodedError<ErrorCode> {
  override name = 'ApiError';

  constructor(
    code: ErrorCode,
    params: ErrorParams = {},
    /** Extra response headers (e.g. Retry-After on 429, Allow on 405). */
    readonly headers: Record<string, string> = {},
  ) {
    super(code, ERROR_STATUS[code], code, params);
  }
}

/** Codes that are logged but never reach a client (the client had already gone). */
export const LOGGED_ONLY_CODES: readonly ErrorCode[] = ['client_closed'];

/** Codes a client can receive: ERROR_STATUS's, so a new code is documented with no edit. */
export const SENT_ERROR_CODES = keysOf(ERROR_STATUS).filter((code) => !LOGGED_ONLY_CODES.includes(code)) as [ErrorCode, ...ErrorCode[]];

/** The JSON body of every error response. */
export const ErrorBodySchema = t.Object({
  success: t.Literal(false),
  error: t.Object({
    code: StringEnum(SENT_ERROR_CODES, { description: 'Stable snake_case code: branch on this, never on the message.' }),
    message: t.String({ description: 'Human-readable message in the negotiated language.' }),
  }),
});

/** The JSON body of every error response. */
export type ErrorBody = Static<typeof ErrorBodySchema>;
