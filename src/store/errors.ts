/** Failures of the store, as the rest of the service sees them. */
import { CodedError } from '../contract/errors';

/**
 * The store cannot answer now (SQLite locked by another process past the deadline, PostgreSQL
 * unreachable, a disk error): the request gets 503 store_unavailable with Retry-After, and nothing
 * was charged. `reason` is a driver code such as SQLITE_BUSY or ERR_POSTGRES_CONNECTION_REFUSED,
 * or `timeout`; never a message (it could quote data).
 */
export class StoreUnavailableError extends CodedError<'store_unavailable'> {
  override name = 'StoreUnavailableError';

  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super('store_unavailable', 503, `store unavailable: ${reason}`, {}, options);
  }
}

/** The store could not be opened at start: `message` is one line saying where, why and what to do. */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
}

/** The driver's error code (SQLITE_BUSY, ERR_POSTGRES_SERVER_ERROR, ...) or the error's name. */
export function driverCode(error: unknown): string {
  if (error instanceof StoreUnavailableError) return error.reason;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code !== '') return code;
  return (error as Error | null)?.name ?? 'Error';
}

/** Wraps any driver failure as StoreUnavailableError (already wrapped errors pass through). */
export function unavailable(error: unknown): StoreUnavailableError {
  return error instanceof StoreUnavailableError ? error : new StoreUnavailableError(driverCode(error), { cause: error });
}

/** Seconds a client is asked to wait after a 503 store_unavailable (RFC 9110 §10.2.3). Outages seen here (a lock held by an admin's shell, a PostgreSQL restart) last seconds. */
export const STORE_RETRY_AFTER_SECONDS = 2;
