/**
 * A calibration that cannot finish gives its charge back whole (issue 34): the time budget running
 * out while its texts are scored, and the client hanging up meanwhile. In process (app.handle), on
 * a fresh SQLite store, with scoring slowed so neither depends on the machine's speed.
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { humanTexts } from '../../scripts/lib/human-texts';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { Detector } from '../../src/detector/types';
import { createJsonLogger } from '../../src/http/logger';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { call, detector, freshStore, keyOn } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const period = () => new Date().toISOString().slice(0, 7);

/**
 * An app whose detector scores each calibration text 1 ms slower (a slow or busy machine): 3,000
 * texts take 3 s or more, whatever the machine. At the real speed they took 88-140 ms warm on 2
 * cores, so a 100 ms budget raced them and a quick run made the profile (issue 39).
 */
function slowApp(env: Record<string, string> = {}) {
  const real = detector();
  const slow: Detector = {
    countWords: (text) => real.countWords(text),
    analyze: (text, options) => real.analyze(text, options),
    profileSample(text) {
      Bun.sleepSync(1);
      return real.profileSample(text);
    },
  };
  const store = freshStore();
  const config = loadConfig({ DATABASE_PATH: ':memory:', BOOTSTRAP_KEY: '0', ...env });
  return { app: createApp({ config, store, detector: slow, logger: createJsonLogger(() => {}) }), store };
}

describe('a calibration that cannot finish', () => {
  it('answers 413 calibration_timeout past the time budget, with nothing charged and nothing stored', async () => {
    const { app, store } = slowApp({ BATCH_TIME_BUDGET_MS: '100' });
    const { key, row } = await keyOn(store, 'enterprise');
    const answer = await call(app, '/v1/calibrations', { key, json: { name: 'Archive', texts: humanTexts(3000, 2) } });
    expect(answer.status).toBe(413);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('calibration_timeout');
    expect(await store.quota.read(row.id, period(), true)).toEqual({ wordsUsed: 0, calls: 0 });
    expect(await store.calibrations.count(row.id)).toBe(0);
  });

  it('gives the charge back when the client hangs up while the texts are scored', async () => {
    const { app, store } = slowApp();
    const { key, row } = await keyOn(store, 'enterprise');
    const client = new AbortController();
    const request = new Request('http://localhost/v1/calibrations', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ name: 'Archive', texts: humanTexts(3000, 3) }),
      signal: client.signal,
    });
    const answered = app.handle(request);
    // Charged once the texts are counted, then scored for 3 s or more: hang up in between.
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
