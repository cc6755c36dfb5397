/** Retrying a write that must not be lost (a refund) in the background, with backoff, for a bounded time. */

/** How it went: attempts made, and the last error when it never succeeded. */
export interface KeepTryingResult {
  ok: boolean;
  attempts: number;
  lastError?: unknown;
}

/** Options of keepTrying. */
export interface KeepTryingOptions {
  /** Give up this long after the first attempt. */
  windowMs: number;
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Called once, after the first attempt fails. */
  onFirstFailure?: (error: unknown) => void;
}

/** Runs `work` until it resolves or `windowMs` has passed; never rejects. */
export async function keepTrying(work: () => Promise<unknown>, options: KeepTryingOptions): Promise<KeepTryingResult> {
  const { windowMs, firstDelayMs = 500, maxDelayMs = 30_000, onFirstFailure } = options;
  const giveUpAt = Date.now() + windowMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await work();
      return { ok: true, attempts: attempt };
    } catch (error) {
      if (attempt === 1) onFirstFailure?.(error);
      if (Date.now() >= giveUpAt) return { ok: false, attempts: attempt, lastError: error };
      await Bun.sleep(Math.min(maxDelayMs, firstDelayMs * 2 ** (attempt - 1)));
    }
  }
}
