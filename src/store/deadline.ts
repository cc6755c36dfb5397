/** A time limit on one store operation: the request gets 503 store_unavailable instead of waiting on a dead connection. */
import { StoreUnavailableError, unavailable } from './errors';

/**
 * `work`, or StoreUnavailableError('timeout') after `ms`; any failure of `work` becomes
 * StoreUnavailableError. `onLate` gets the result of work that finishes after the deadline
 * (a charge committed after its request was answered 503 must be given back).
 */
export function withDeadline<T>(work: Promise<T>, ms: number, onLate?: (result: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new StoreUnavailableError('timeout'));
    }, ms);
    work.then(
      (result) => {
        clearTimeout(timer);
        if (late) onLate?.(result);
        else resolve(result);
      },
      (error) => {
        clearTimeout(timer);
        if (!late) reject(unavailable(error));
      },
    );
  });
}
