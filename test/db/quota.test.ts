import { describe, expect, it } from 'bun:test';
import { createKey, findActiveKey } from '../../src/modules/keys';
import { chargeWords, getQuotaState, nextResetMs, periodOf, quotaError, rateLimitHeaders } from '../../src/modules/quota';
import { PLANS } from '../../src/plans';
import { freshDb } from '../http/helpers';

const NOV = Date.UTC(2026, 10, 21, 12, 0, 0);
const DEC = Date.UTC(2026, 11, 1, 0, 0, 0);

function keyRow(plan: 'free' | 'trial' | 'enterprise' = 'free') {
  const db = freshDb();
  const created = createKey(db, { plan });
  return { db, key: findActiveKey(db, created.key)! };
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

describe('chargeWords', () => {
  it('charges words and reports what is left', () => {
    const { db, key } = keyRow();
    const result = chargeWords(db, key, 1200, NOV);
    expect(result.ok).toBe(true);
    expect(result.state).toMatchObject({ plan: 'free', limit: 10_000, used: 1200, remaining: 8800, resetAt: DEC / 1000 });
    expect(getQuotaState(db, key, NOV).used).toBe(1200);
  });

  it('rejects a charge that would exceed the month and charges nothing', () => {
    const { db, key } = keyRow();
    expect(chargeWords(db, key, 9_990, NOV).ok).toBe(true);
    const over = chargeWords(db, key, 11, NOV);
    expect(over).toMatchObject({ ok: false, code: 'quota_exceeded' });
    expect(getQuotaState(db, key, NOV).used).toBe(9_990);
    expect(chargeWords(db, key, 10, NOV).state.remaining).toBe(0);
  });

  it('rejects a first charge of the month larger than the plan', () => {
    const { db, key } = keyRow();
    expect(chargeWords(db, key, 10_001, NOV)).toMatchObject({ ok: false, code: 'quota_exceeded' });
    expect(getQuotaState(db, key, NOV).used).toBe(0);
  });

  it('starts every UTC month from zero', () => {
    const { db, key } = keyRow();
    chargeWords(db, key, 10_000, NOV);
    expect(chargeWords(db, key, 1, NOV).ok).toBe(false);
    expect(chargeWords(db, key, 500, DEC)).toMatchObject({ ok: true, state: { used: 500 } });
  });

  it('caps a trial key at 500 successful calls in total, across months', () => {
    const { db, key } = keyRow('trial');
    for (let i = 0; i < 499; i++) chargeWords(db, key, 1, NOV);
    expect(chargeWords(db, key, 1, DEC)).toMatchObject({ ok: true, state: { callsUsed: 500, callLimit: 500 } });
    expect(chargeWords(db, key, 1, DEC)).toMatchObject({ ok: false, code: 'trial_calls_exhausted' });
    expect(getQuotaState(db, key, DEC)).toMatchObject({ used: 1, callsUsed: 500, limit: PLANS.trial.wordsPerMonth });
  });
});

describe('rate-limit headers', () => {
  it('reports limit, remaining and the reset as epoch seconds', () => {
    const { db, key } = keyRow('enterprise');
    chargeWords(db, key, 100, NOV);
    expect(rateLimitHeaders(getQuotaState(db, key, NOV))).toEqual({
      'x-ratelimit-limit': '15000000',
      'x-ratelimit-remaining': '14999900',
      'x-ratelimit-reset': String(DEC / 1000),
    });
  });

  it('builds a 429 with Retry-After in seconds until the reset', () => {
    const { db, key } = keyRow();
    const error = quotaError('quota_exceeded', getQuotaState(db, key, NOV), 50, NOV);
    expect(error.status).toBe(429);
    expect(error.headers['retry-after']).toBe(String((DEC - NOV) / 1000));
    expect(error.params).toMatchObject({ words: 50, remaining: 10_000, limit: 10_000 });
  });
});
