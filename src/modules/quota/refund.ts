/**
 * Refunds that must not be lost. A refund is owed for work the client never got (a batch cut
 * short, an analysis that failed); if the store is down at that moment, the refund is retried in
 * the background with backoff, for up to REFUND_RETRY_WINDOW_MS, instead of being dropped.
 */
import { driverCode } from '../../store/errors';
import { keepTrying } from '../../store/retry';
import type { ApiKey, QuotaStore } from '../../store/types';
import { oweRefund } from './owed';
import { refundWords } from './service';

/** How long a failing refund keeps being retried (an outage longer than this needs an operator anyway). */
export const REFUND_RETRY_WINDOW_MS = 60 * 60 * 1000;
/** Pause before the first background retry. */
const FIRST_RETRY_MS = 500;

/**
 * What refundOrRetry and the holds report (metadata only): the first failure, a late success,
 * giving up; and words a count whose reply came late took for a result never sent, given back.
 */
export type RefundReport = (
  event: 'refund_failed' | 'refund_retried' | 'refund_given_up' | 'late_count_given_back',
  fields: Record<string, string | number>,
) => void;

/** A refund attempt now; if it fails, retries continue in the background. Resolves after the first attempt; never rejects. */
export async function refundOrRetry(
  quota: QuotaStore,
  key: ApiKey,
  words: number,
  chargedAt: number,
  calls: 0 | 1,
  report: RefundReport,
): Promise<void> {
  const fields = { keyId: key.id, words };
  try {
    const attempt = refundWords(quota, key, words, chargedAt, calls);
    oweRefund(quota, key.id, attempt);
    await attempt;
    return;
  } catch (error) {
    report('refund_failed', { ...fields, name: driverCode(error) });
  }
  void (async () => {
    await Bun.sleep(FIRST_RETRY_MS);
    const outcome = await keepTrying(() => refundWords(quota, key, words, chargedAt, calls), { windowMs: REFUND_RETRY_WINDOW_MS });
    if (outcome.ok) report('refund_retried', { ...fields, attempts: outcome.attempts + 1 });
    else report('refund_given_up', { ...fields, name: driverCode(outcome.lastError), attempts: outcome.attempts + 1 });
  })();
}
