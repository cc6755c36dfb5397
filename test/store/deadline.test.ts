import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { withDeadline } from '../../src/store/deadline';
import { StoreUnavailableError } from '../../src/store/errors';

setDefaultTimeout(SUITE_TIMEOUT_MS);

describe('store deadlines', () => {
  it('answers in time with the result, or StoreUnavailableError("timeout") and the late result to onLate', async () => {
    const late: string[] = [];
    expect(
      await withDeadline(
        Bun.sleep(5).then(() => 'fast'),
        200,
        (r) => late.push(r),
      ),
    ).toBe('fast');
    const slow = withDeadline(
      Bun.sleep(120).then(() => 'slow'),
      30,
      (r) => late.push(r),
    );
    const error = await slow.catch((e) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error.reason).toBe('timeout');
    expect(late).toEqual([]);
    await Bun.sleep(150);
    expect(late).toEqual(['slow']);
  });

  it('turns a driver error into StoreUnavailableError with the driver code', async () => {
    const failing = Promise.reject(Object.assign(new Error('refused'), { code: 'ERR_POSTGRES_CONNECTION_REFUSED' }));
    const error = await withDeadline(failing, 100).catch((e) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error.reason).toBe('ERR_POSTGRES_CONNECTION_REFUSED');
  });
});
