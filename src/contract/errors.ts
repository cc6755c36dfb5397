/**
 * The one base of every error that reaches a client, server or playground: a stable snake_case
 * `code` to branch on (never the message), the HTTP `status` it answers with, and the values its
 * localized message quotes. ApiError (src/http/errors.ts), ExtractError (src/extract/errors.ts) and
 * StoreUnavailableError (src/store/errors.ts) extend it; the playground's ApiError (src/web/api.ts) too.
 */

/** Values substituted into a localized message (`{count}` etc.). */
export type ErrorParams = Record<string, string | number>;

/** An error with a stable code and an HTTP status. */
export class CodedError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    readonly status: number,
    message: string = code,
    readonly params: ErrorParams = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}
