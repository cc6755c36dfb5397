/** The one error hierarchy of the API: a stable snake_case `code`, an HTTP `status`, message params. */
import { t, type Static } from 'elysia';
import { CodedError, type ErrorParams } from '../contract/errors';
import { Int, keysOf, StringEnum } from './schema';

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
  /** A calibration profile id that is not `cal_` and 22 base62 characters (issue 34). */
  invalid_calibration_id: 400,
  /**
   * The calibration profile named, as stored, fails the checks a profile file gets (parseProfile; issue 44:
   * a row edited in the database): never applied. PROFILE_ERROR_STATUS's status (detector/decide/profile.ts).
   */
  calibration_invalid: 400,
  not_found: 404,
  /** No calibration profile with this id for this key: unknown, deleted, or another key's (the same answer). */
  calibration_not_found: 404,
  method_not_allowed: 405,
  /** The Idempotency-Key's first request is still running (after waiting for it); sent with Retry-After. */
  idempotency_request_in_progress: 409,
  /** The key keeps MAX_CALIBRATIONS_PER_KEY profiles already: delete one first. */
  calibration_limit_reached: 409,
  payload_too_large: 413,
  too_many_files: 413,
  /** More sentences than a text of its length may have (src/extract/sentences.ts): too costly to score. */
  too_many_sentences: 413,
  /** More characters than MAX_TEXT_CHARS, as sent or once normalised (src/contract/text-length.ts): one text is one synchronous call. */
  text_too_long: 413,
  /**
   * The request needs more words than the key's plan gives in a whole month: it can never succeed
   * on this plan, so it is not a 429 (a retry would never help). Split the text or the batch.
   */
  exceeds_plan: 413,
  /** More calibration texts (JSON) than MAX_CALIBRATION_TEXTS. */
  too_many_texts: 413,
  /** The calibration texts took longer than the batch time budget to read and score. */
  calibration_timeout: 413,
  unsupported_media_type: 415,
  /** The Idempotency-Key was used with another body (RFC draft httpapi-idempotency-key-header: 422). */
  idempotency_key_reused: 422,
  /** A language of the calibration set has fewer usable texts than a profile needs (PROFILE_ERROR_STATUS, detector/decide/profile.ts). */
  calibration_too_small: 422,
  /** No usable text (20+ words) in the calibration set. */
  calibration_empty: 422,
  /** AI examples of a language that has no known-human text in the set: nothing to set its bars on (issue 45). */
  calibration_ai_without_human: 422,
  /** Not enough words left this month; no Retry-After (the reset is in X-RateLimit-Reset and the body's resetAt). */
  quota_exceeded: 429,
  trial_calls_exhausted: 429,
  /** Too many requests from this key for its plan's rate (RateLimit-Policy); sent with a short Retry-After. */
  rate_limited: 429,
  /** Logged only: the client went away before its answer (nginx's convention); never sent. */
  client_closed: 499,
  internal_error: 500,
  /** The key/quota store is locked or unreachable; sent with Retry-After. */
  store_unavailable: 503,
  /**
   * The process answering stalled (a pause, swap) past the lease of the request's charge, which
   * was given back meanwhile: it may not deliver the answer (issue 33). Sent with Retry-After.
   */
  hold_expired: 503,
} as const;

/** A stable, documented error code. */
export type ErrorCode = keyof typeof ERROR_STATUS;

export type { ErrorParams } from '../contract/errors';

/** Units a quota or rate error counts in. */
export const LIMIT_UNITS = ['words', 'calls', 'requests'] as const;

/**
 * Machine-readable facts of a quota or rate error, sent beside the message (ErrorBodySchema):
 * what the request needed, what is left, the limit, and when more becomes available.
 */
export interface ErrorDetails {
  unit: (typeof LIMIT_UNITS)[number];
  needed: number;
  remaining: number;
  limit: number;
  /** ISO 8601 instant when the key has more again; null when it never will (trial calls). */
  resetAt: string | null;
}

/** An error a client caused (or 500): mapped once to `{ success:false, error:{code,message} }`. */
export class ApiError extends CodedError<ErrorCode> {
  override name = 'ApiError';

  constructor(
    code: ErrorCode,
    params: ErrorParams = {},
    /** Extra response headers (e.g. Retry-After on 429, Allow on 405). */
    readonly headers: Record<string, string> = {},
    /** Machine-readable fields of quota and rate errors, sent in the body's `error` object. */
    readonly details: ErrorDetails | null = null,
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
    unit: t.Optional(
      StringEnum(LIMIT_UNITS, {
        description:
          'Quota and rate errors (quota_exceeded, exceeds_plan, trial_calls_exhausted, rate_limited): what `needed`, `remaining` and `limit` count.',
      }),
    ),
    needed: t.Optional(Int({ minimum: 0, description: 'Quota and rate errors: how many units this request needed (at least).' })),
    remaining: t.Optional(Int({ minimum: 0, description: 'Quota and rate errors: units the key has left now.' })),
    limit: t.Optional(
      Int({ minimum: 0, description: "Quota and rate errors: the plan's limit (words per month, lifetime calls, requests per window)." }),
    ),
    resetAt: t.Optional(
      t.Union([t.String({ format: 'date-time' }), t.Null()], {
        description:
          'Quota and rate errors: when the key has more units again (the monthly reset; for rate_limited, when the next request is allowed); null when never (trial calls).',
      }),
    ),
  }),
});

/** The JSON body of every error response. */
export type ErrorBody = Static<typeof ErrorBodySchema>;
