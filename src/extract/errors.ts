/** Stable extraction error codes: the batch route copies `code` into its NDJSON error line. */
export type ExtractErrorCode =
  | 'unsupported_format'
  | 'corrupt_file'
  | 'encrypted_pdf'
  | 'file_too_large'
  | 'no_text'
  | 'extract_timeout'
  | 'extract_failed';

/** HTTP status each code maps to when a single file is the whole request. */
export const EXTRACT_ERROR_STATUS: Record<ExtractErrorCode, number> = {
  unsupported_format: 415,
  corrupt_file: 422,
  encrypted_pdf: 422,
  file_too_large: 413,
  no_text: 422,
  extract_timeout: 504,
  extract_failed: 500,
};

/** The one error type extraction throws; branch on `code`, never on `message`. */
export class ExtractError extends Error {
  readonly code: ExtractErrorCode;
  readonly status: number;

  constructor(code: ExtractErrorCode, message: string) {
    super(message);
    this.name = 'ExtractError';
    this.code = code;
    this.status = EXTRACT_ERROR_STATUS[code];
  }
}

/** True when `value` is an ExtractError. */
export function isExtractError(value: unknown): value is ExtractError {
  return value instanceof ExtractError;
}
