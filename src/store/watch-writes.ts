/** A QuotaStore whose charges and refunds report their outcome to a WriteHealth (GET /health). */
import type { QuotaStore, RateStore } from './types';
import type { WriteHealth } from './write-health';

/**
 * `quota` with each charge and refund watched; reads pass through. Only what wrote something counts
 * as a success: a refused charge or an empty refund changes no page, so it commits even on a full disk.
 */
export function watchQuotaWrites(quota: QuotaStore, writes: WriteHealth): QuotaStore {
  return {
    read: (keyId, period, withCalls) => quota.read(keyId, period, withCalls),
    periodCalls: (keyId, period) => quota.periodCalls(keyId, period),
    async charge(request) {
      try {
        const counters = await quota.charge(request);
        if (counters) writes.ok();
        return counters;
      } catch (error) {
        writes.failed(error);
        throw error;
      }
    },
    refund: (keyId, period, words, calls) =>
      words <= 0 && calls === 0 ? quota.refund(keyId, period, words, calls) : writes.watch(() => quota.refund(keyId, period, words, calls)),
  };
}

/**
 * `rates` with each take reported to a WriteHealth: every take writes its bucket, and a request is
 * refused 503 at its rate take when the disk is full, before any charge could report it.
 */
export function watchRateWrites(rates: RateStore, writes: WriteHealth): RateStore {
  return { take: (take) => writes.watch(() => rates.take(take)) };
}
