import { CodedError, type ErrorParams } from '../contract/errors';
import type { ExtractLimitKind } from './limits.ts';

/** Stable extraction error codes: the batch route copies `code` into its NDJSON error line. */
export type ExtractErrorCode =
  | 'unsupported_format'
  | 'corrupt_file'
  | 'encrypted_pdf'
  | 'file_too_large'
  | 'extract_limit'
  | 'no_text'
  | 'extract_timeout'
  | 'extract_failed'
  | 'extract_throttled';

/**
 * HTTP status each code maps to when a single file is the whole request; its keys are THE list
 * of extraction error codes (the API documentation is derived from it).
 */
export const EXTRACT_ERROR_STATUS: Record<ExtractErrorCode, number> = {
  unsupported_format: 415,
  corrupt_file: 422,
  encrypted_pdf: 422,
  file_too_large: 413,
  // RFC 9110 15.5.14: content larger than the server is willing to process (here once unpacked).
  extract_limit: 413,
  no_text: 422,
  extract_timeout: 504,
  extract_failed: 500,
  // Issue 23: the sender's files hit extraction limits too often lately (see TaskGate in pool.ts).
  extract_throttled: 429,
};

/** Every extraction error code, in the order of EXTRACT_ERROR_STATUS. */
export const EXTRACT_ERROR_CODES = Object.keys(EXTRACT_ERROR_STATUS) as readonly ExtractErrorCode[];

/**
 * Values a localized message quotes: file_too_large has `limit` (bytes); extract_limit has
 * `kind` (which limit, also the message key), `limit` and, where known, `page` or `actual`.
 */
export type ExtractErrorParams = ErrorParams;

/** The one error type extraction throws; branch on `code`, never on `message`. */
export class ExtractError extends CodedError<ExtractErrorCode> {
  override name = 'ExtractError';

  constructor(code: ExtractErrorCode, message: string, params: ExtractErrorParams = {}) {
    super(code, EXTRACT_ERROR_STATUS[code], message, params);
  }
}

/** An extract_limit error naming the limit that was hit (`detail` is the English log message). */
export function limitError(kind: ExtractLimitKind, limit: number, detail: string, extra: ExtractErrorParams = {}): ExtractError {
  return new ExtractError('extract_limit', detail, { ...extra, kind, limit });
}
