import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { Detector } from '../../src/detector/types';
import { StoreUnavailableError } from '../../src/store/errors';
import type { Store } from '../../src/store/types';
import { call, detector, freshStore, keyOn, makeApp, PROSE } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

describe('a store that fails (issue 16: storage failures are 503, not 500)', () => {
  it('answers 503 store_unavailable with Retry-After, localized, and /health says degraded', async () => {
    const { app, store, newKey, logs } = makeApp();
    const key = (await newKey()).key;
    expect((await call(app, '/api/detect', { key, json: { text: PROSE } })).status).toBe(200);
    store.db.$client.close(); // every statement now fails, as on a disk error
    for (const lang of ['en', 'es']) {
      const response = await call(app, `/api/detect?lang=${lang}`, { key, json: { text: PROSE } });
      expect(response.status).toBe(503);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = await response.json();
      expect(body.error.code).toBe('store_unavailable');
      expect(body.error.message).toStartWith(lang === 'en' ? 'The key and quota store' : 'Ahora mismo no se puede');
    }
    const health = await call(app, '/health');
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'degraded', store: 'down' });
    expect(logs.some((l) => l.includes('"event":"unhandled_error"'))).toBe(false);
    expect(logs.some((l) => l.includes('"event":"store_unavailable"'))).toBe(true);
  });

  it('answers 503 when the charge itself fails, before any analysis runs', async () => {
    const store = freshStore();
    const key = (await keyOn(store)).key;
    const unreachable: Store['quota'] = {
      ...store.quota,
      charge: () => Promise.reject(new StoreUnavailableError('ERR_POSTGRES_CONNECTION_CLOSED')),
    };
    let analyses = 0;
    const counting: Detector = {
      countWords: (text) => detector().countWords(text),
      profileSample: (text) => detector().profileSample(text),
      analyze: (text, options) => (analyses++, detector().analyze(text, options)),
    };
    const app = createApp({ config: loadConfig({ BOOTSTRAP_KEY: '0' }), store: { ...store, quota: unreachable }, detector: counting });
    const response = await call(app, '/api/detect', { key, json: { text: PROSE } });
    expect(response.status).toBe(503);
    expect((await response.json()).error.code).toBe('store_unavailable');
    expect(analyses).toBe(0);
  });
});
