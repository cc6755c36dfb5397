import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { chargeWords, getQuotaState, nextResetMs, periodOf, quotaError, rateLimitHeaders } from '../../src/modules/quota';
import { PLANS } from '../../src/plans';
import { freshStore, keyOn } from '../http/helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const NOV = Date.UTC(2026, 10, 21, 12, 0, 0);
const DEC = Date.UTC(2026, 11, 1, 0, 0, 0);

async function keyRow(plan: 'free' | 'trial' | 'enterprise' = 'free') {
  const store = freshStore();
  const { row } = await keyOn(store, plan);
  return { quota: store.quota, key: row };
}

describe('quota periods', () => {
  it('uses UTC calendar months and resets at 00:00 UTC on the 1st', () => {
    expect(periodOf(NOV)).toBe('2026-11');
    expect(nextResetMs(NOV)).toBe(DEC);
    expect(nextResetMs(Date.UTC(2026, 11, 31, 23, 59, 59))).toBe(Date.UTC(2027, 0, 1));
    expect(periodOf(DEC - 1)).toBe('2026-11');
    expect(periodOf(DEC)).toBe('2026-12');
  });
});

describe('chargeWords (SQLite; test/store runs the same rules on both stores)', () => {
  it('charges words and reports what is left', async () => {
    const { quota, key } = await keyRow();
    const result = await chargeWords(quota, key, 1200, NOV);
    expect(result.ok).toBe(true);
    expect(result.state).toMatchObject({ plan: 'free', limit: 10_000, used: 1200, remaining: 8800, resetAt: DEC / 1000 });
    expect((await getQuotaState(quota, key, NOV)).used).toBe(1200);
  });

  it('rejects a charge that would exceed the month and charges nothing', async () => {
    const { quota, key } = await keyRow();
    expect((await chargeWords(quota, key, 9_990, NOV)).ok).toBe(true);
    const over = await chargeWords(quota, key, 11, NOV);
    expect(over).toMatchObject({ ok: false, code: 'quota_exceeded' });
    expect((await getQuotaState(quota, key, NOV)).used).toBe(9_990);
    expect((await chargeWords(quota, key, 10, NOV)).state.remaining).toBe(0);
  });

  it('rejects a first charge of the month larger than the plan', async () => {
    const { quota, key } = await keyRow();
    expect(await chargeWords(quota, key, 10_001, NOV)).toMatchObject({ ok: false, code: 'quota_exceeded' });
    expect((await getQuotaState(quota, key, NOV)).used).toBe(0);
  });

  it('starts every UTC month from zero', async () => {
    const { quota, key } = await keyRow();
    await chargeWords(quota, key, 10_000, NOV);
    expect((await chargeWords(quota, key, 1, NOV)).ok).toBe(false);
    expect(await chargeWords(quota, key, 500, DEC)).toMatchObject({ ok: true, state: { used: 500 } });
  });

  it('caps a trial key at 500 successful calls in total, across months', async () => {
    const { quota, key } = await keyRow('trial');
    for (let i = 0; i < 499; i++) await chargeWords(quota, key, 1, NOV);
    expect(await chargeWords(quota, key, 1, DEC)).toMatchObject({ ok: true, state: { callsUsed: 500, callLimit: 500 } });
    expect(await chargeWords(quota, key, 1, DEC)).toMatchObject({ ok: false, code: 'trial_calls_exhausted' });
    expect(await getQuotaState(quota, key, DEC)).toMatchObject({ used: 1, callsUsed: 500, limit: PLANS.trial.wordsPerMonth });
  });
});

describe('rate-limit headers', () => {
  it('reports limit, remaining and the reset as epoch seconds', async () => {
    const { quota, key } = await keyRow('enterprise');
    await chargeWords(quota, key, 100, NOV);
    expect(rateLimitHeaders(await getQuotaState(quota, key, NOV))).toEqual({
      'x-ratelimit-limit': '15000000',
      'x-ratelimit-remaining': '14999900',
      'x-ratelimit-reset': String(DEC / 1000),
    });
  });

  it('builds a 429 quota_exceeded without Retry-After, the reset and the numbers in headers and details (issue 28)', async () => {
    const { quota, key } = await keyRow();
    await chargeWords(quota, key, 9_990, NOV);
    const error = quotaError('quota_exceeded', await getQuotaState(quota, key, NOV), 50);
    expect(error.status).toBe(429);
    expect(error.code).toBe('quota_exceeded');
    // A monthly reset is days away: generic retry libraries honour Retry-After and would hang.
    expect(error.headers['retry-after']).toBeUndefined();
    expect(error.headers['x-ratelimit-reset']).toBe(String(DEC / 1000));
    expect(error.params).toMatchObject({ words: 50, remaining: 10, limit: 10_000 });
    expect(error.details).toEqual({ unit: 'words', needed: 50, remaining: 10, limit: 10_000, resetAt: new Date(DEC).toISOString() });
  });

  it('answers a request larger than the whole plan with 413 exceeds_plan, not a 429 a retry could never pass', async () => {
    const { quota, key } = await keyRow();
    const error = quotaError('quota_exceeded', await getQuotaState(quota, key, NOV), 10_001);
    expect(error.status).toBe(413);
    expect(error.code).toBe('exceeds_plan');
    expect(error.headers['retry-after']).toBeUndefined();
    expect(error.params).toEqual({ words: 10_001, limit: 10_000, plan: 'free' });
    expect(error.details).toEqual({
      unit: 'words',
      needed: 10_001,
      remaining: 10_000,
      limit: 10_000,
      resetAt: new Date(DEC).toISOString(),
    });
  });

  it('gives trial_calls_exhausted its numbers in calls and no reset', async () => {
    const { quota, key } = await keyRow('trial');
    const error = quotaError('trial_calls_exhausted', await getQuotaState(quota, key, NOV), 20);
    expect(error.status).toBe(429);
    expect(error.headers['retry-after']).toBeUndefined();
    expect(error.details).toEqual({ unit: 'calls', needed: 1, remaining: 0, limit: 500, resetAt: null });
  });
});
