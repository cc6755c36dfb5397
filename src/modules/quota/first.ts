/** The quota check a batch passes before its body is read. */
import { MIN_WORDS } from '../../contract';
import type { ApiKey, QuotaStore } from '../../store/types';
import { quotaError } from './headers';
import { callsExhausted, getQuotaState, type QuotaState } from './service';

/**
 * Before a byte of a batch body is read: a trial key out of calls, or a key with fewer words left
 * than any file needs to be scored (MIN_WORDS), gets its 429 at once, with or without an
 * Idempotency-Key (issue 29: keyed requests read and parsed up to 50 MB first). Returns the state otherwise.
 */
export async function checkQuotaFirst(quota: QuotaStore, key: ApiKey): Promise<QuotaState> {
  const state = await getQuotaState(quota, key);
  if (callsExhausted(state)) throw quotaError('trial_calls_exhausted', state, 0);
  // The body was not read: the message says "at least", not what this batch would have needed.
  if (state.remaining < MIN_WORDS) throw quotaError('quota_exceeded', state, MIN_WORDS, 'unread');
  return state;
}
