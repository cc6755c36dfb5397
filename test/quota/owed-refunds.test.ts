/**
 * Issue 23: a refund owed to a key (its client hung up) is seen by the key's next charge. A charge
 * refused meanwhile waits for the owed refunds and is judged again; a request whose own client has
 * gone never waits (the refund it would wait for may be its own: that deadlocked).
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { chargeWords, oweRefund, refundWords } from '../../src/modules/quota';
import { freshStore, keyOn } from '../http/helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

describe('owed refunds', () => {
  it('a refused charge waits for a refund owed to the key, then is judged again', async () => {
    const store = freshStore();
    const { row: key } = await keyOn(store, 'free');
    expect((await chargeWords(store.quota, key, 10_000)).ok).toBe(true);
    const owed = Promise.withResolvers<void>();
    oweRefund(store.quota, key.id, owed.promise);
    const next = chargeWords(store.quota, key, 100);
    await Bun.sleep(50);
    await refundWords(store.quota, key, 10_000, Date.now());
    owed.resolve();
    expect((await next).ok).toBe(true);
  });

  it('a charge of a request whose client has gone does not wait, even for a refund that never settles', async () => {
    const store = freshStore();
    const { row: key } = await keyOn(store, 'free');
    expect((await chargeWords(store.quota, key, 10_000)).ok).toBe(true);
    oweRefund(store.quota, key.id, new Promise(() => {}));
    const gone = AbortSignal.abort();
    const t0 = performance.now();
    const result = await chargeWords(store.quota, key, 100, Date.now(), gone);
    expect(result).toMatchObject({ ok: false, code: 'quota_exceeded' });
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('charges without waiting when nothing is owed', async () => {
    const store = freshStore();
    const { row: key } = await keyOn(store, 'free');
    expect((await chargeWords(store.quota, key, 10_000)).ok).toBe(true);
    expect(await chargeWords(store.quota, key, 100)).toMatchObject({ ok: false, code: 'quota_exceeded' });
  });
});
