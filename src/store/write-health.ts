/**
 * What GET /health knows about writes. A full disk, a read-only file system or an I/O error let
 * reads and the lock probe succeed while every charge failed (issue 23: /health said `up` while
 * each detection got 503 SQLITE_FULL). Each write the store makes (charges, refunds, usage events)
 * reports its outcome here; the latest outcome decides. Writes that failed are retried by
 * themselves (the usage events of the failed requests are kept and written with backoff, at most
 * 1 s apart), so the state turns back to healthy within about a second of writes succeeding again.
 */
import { driverCode } from './errors';
import type { StoreHealth } from './types';

/** The latest write outcome of one store connection. */
export class WriteHealth {
  private failure: string | null = null;

  /** A write committed. */
  ok(): void {
    this.failure = null;
  }

  /**
   * A write failed. Lock contention (SQLITE_BUSY) is not a failure of the disk: the lock probe
   * reports a foreign lock, and a busy moment between WORKERS processes must not take an instance out.
   */
  failed(error: unknown): void {
    const code = driverCode(error);
    if (code.startsWith('SQLITE_BUSY')) return;
    this.failure = code;
  }

  /** `down` with the failing write's code while the latest write failed, else null. */
  state(): StoreHealth | null {
    return this.failure === null ? null : { store: 'down', reason: 'writes_failing', code: this.failure };
  }

  /** `work` with its outcome reported. */
  async watch<T>(work: () => Promise<T>): Promise<T> {
    try {
      const result = await work();
      this.ok();
      return result;
    } catch (error) {
      this.failed(error);
      throw error;
    }
  }
}
