/** A QuotaStore whose charges and refunds report their outcome to a WriteHealth (GET /health). */
import type { QuotaStore } from './types';
import type { WriteHealth } from './write-health';

/** `quota` with each charge and refund watched; reads pass through. */
export function watchQuotaWrites(quota: QuotaStore, writes: WriteHealth): QuotaStore {
  return {
    read: (keyId, period, withCalls) => quota.read(keyId, period, withCalls),
    charge: (request) => writes.watch(() => quota.charge(request)),
    refund: (keyId, period, words, calls) => writes.watch(() => quota.refund(keyId, period, words, calls)),
  };
}
