/**
 * Refunds this process owes and has not written yet, per store and key. A detection whose client
 * hangs up while it is being charged gives its words back a moment later; a charge of the same
 * key that is refused meanwhile waits for those refunds and is tried once more, so the next
 * request is judged on the words actually owed (issue 23: it was refused with 429 first).
 */
import type { QuotaStore } from '../../store/types';

const owedByStore = new WeakMap<QuotaStore, Map<number, Set<Promise<unknown>>>>();

/** Records that a refund for `keyId` is on its way until `settled` settles. */
export function oweRefund(quota: QuotaStore, keyId: number, settled: Promise<unknown>): void {
  let byKey = owedByStore.get(quota);
  if (!byKey) owedByStore.set(quota, (byKey = new Map()));
  let pending = byKey.get(keyId);
  if (!pending) byKey.set(keyId, (pending = new Set()));
  pending.add(settled);
  const done = () => {
    pending.delete(settled);
    if (pending.size === 0 && byKey.get(keyId) === pending) byKey.delete(keyId);
  };
  settled.then(done, done);
}

/** Waits for the refunds owed to `keyId`; false when none was owed (nothing to wait for). */
export async function refundsOwed(quota: QuotaStore, keyId: number): Promise<boolean> {
  const pending = owedByStore.get(quota)?.get(keyId);
  if (!pending || pending.size === 0) return false;
  await Promise.allSettled([...pending]);
  return true;
}
