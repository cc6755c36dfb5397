/**
 * A calibration that cannot finish gives its charge back whole (issue 34): the time budget running
 * out while its texts are scored, and the client hanging up meanwhile. In process (app.handle), on
 * a fresh SQLite store.
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { humanTexts } from '../../scripts/lib/human-texts';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { call, makeApp } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const period = () => new Date().toISOString().slice(0, 7);

describe('a calibration that cannot finish', () => {
  it('answers 413 calibration_timeout past the time budget, with nothing charged and nothing stored', async () => {
    const { app, store, newKey } = makeApp({ BATCH_TIME_BUDGET_MS: '100' });
    const { key, row } = await newKey('enterprise');
    const answer = await call(app, '/v1/calibrations', { key, json: { name: 'Archive', texts: humanTexts(3000, 2) } });
    expect(answer.status).toBe(413);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('calibration_timeout');
    expect(await store.quota.read(row.id, period(), true)).toEqual({ wordsUsed: 0, calls: 0 });
    expect(await store.calibrations.count(row.id)).toBe(0);
  });

  it('gives the charge back when the client hangs up while the texts are scored', async () => {
    const { app, store, newKey } = makeApp();
    const { key, row } = await newKey('enterprise');
    const client = new AbortController();
    const request = new Request('http://localhost/v1/calibrations', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ name: 'Archive', texts: humanTexts(3000, 3) }),
      signal: client.signal,
    });
    const answered = app.handle(request);
    // Charged once the texts are counted, then scored for about a second: hang up in between.
    let used = 0;
    for (let i = 0; i < 200 && used === 0; i++) {
      await Bun.sleep(5);
      used = (await store.quota.read(row.id, period(), false)).wordsUsed;
    }
    expect(used).toBeGreaterThan(100_000);
    client.abort();
    expect((await answered).status).toBe(499);
    expect(await store.quota.read(row.id, period(), true)).toEqual({ wordsUsed: 0, calls: 0 });
    expect(await store.calibrations.count(row.id)).toBe(0);
  });
});
