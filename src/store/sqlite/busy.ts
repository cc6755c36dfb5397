/**
 * SQLITE_BUSY without blocking the event loop. Each attempt waits at most BUSY_TIMEOUT_MS inside
 * SQLite (client.ts); past that, the attempt is repeated on a timer, with backoff, until the
 * deadline, and then fails with StoreUnavailableError (503 store_unavailable). A failed attempt
 * changed nothing (the statement or transaction was refused before it began), so retrying cannot
 * charge twice.
 */
import { StoreUnavailableError, unavailable } from '../errors';

/** First pause between attempts; doubled up to RETRY_MAX_DELAY_MS. */
export const RETRY_FIRST_DELAY_MS = 5;
/** Longest pause between attempts: a lock released is noticed within this. */
export const RETRY_MAX_DELAY_MS = 100;

/** True for SQLITE_BUSY and its extended codes (SQLITE_BUSY_SNAPSHOT, ...). */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** The pause before attempt number `attempt` (1-based). */
export function retryDelay(attempt: number): number {
  return Math.min(RETRY_MAX_DELAY_MS, RETRY_FIRST_DELAY_MS * 2 ** (attempt - 1));
}

/**
 * Runs `work` (synchronous SQLite calls) now and, while it fails with SQLITE_BUSY, again after a
 * pause, until `deadline` (performance.now() ms). Other driver errors are StoreUnavailableError
 * at once; past the deadline the reason is SQLITE_BUSY.
 */
export async function retryBusy<T>(work: () => T, deadline: number): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return work();
    } catch (error) {
      if (!isBusy(error)) throw unavailable(error);
      const pause = retryDelay(attempt);
      if (performance.now() + pause > deadline) throw new StoreUnavailableError('SQLITE_BUSY', { cause: error });
      await Bun.sleep(pause);
    }
  }
}
