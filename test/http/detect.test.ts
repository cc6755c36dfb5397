import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { revokeKey } from '../../src/modules/keys';
import { chargeWords, getQuotaState } from '../../src/modules/quota';
import { modelVersion } from '../../src/model-version';
import { call, makeApp, PROSE, words } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

async function errorOf(response: Response) {
  const body = (await response.json()) as { success: boolean; error: { code: string; message: string } };
  expect(body.success).toBe(false);
  expect(Object.keys(body)).toEqual(['success', 'error']);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.message.length).toBeGreaterThan(10);
  return body.error;
}

function expectRateHeaders(response: Response, limit: number, remaining: number) {
  expect(response.headers.get('x-ratelimit-limit')).toBe(String(limit));
  expect(response.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
  const reset = Number(response.headers.get('x-ratelimit-reset'));
  const now = new Date();
  expect(reset).toBe(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000);
}

describe('POST /api/detect (single mode)', () => {
  it('returns every contract field with its type and charges the words', async () => {
    const { app, newKey } = makeApp();
    const response = await call(app, '/api/detect', { key: (await newKey('free')).key, json: { text: PROSE } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = await response.json();
    expect(body.success).toBe(true);
    expect(Number.isInteger(body.score)).toBe(true);
    expect(body.score).toBeGreaterThanOrEqual(0);
    expect(body.score).toBeLessThanOrEqual(100);
    for (const field of ['verdict', 'docTypeLabel', 'verdictKey', 'docType', 'language', 'sensitivity'])
      expect(typeof body[field]).toBe('string');
    for (const field of ['totalDimensions', 'activeDimensions', 'rate_limit', 'rate_remaining', 'words'])
      expect(Number.isInteger(body[field])).toBe(true);
    expect(typeof body.ms_cost).toBe('number');
    expect(body.ms_cost).toBeGreaterThan(0);
    // Milliseconds to the microsecond: at most 3 decimals.
    expect(body.ms_cost).toBe(Math.round(body.ms_cost * 1000) / 1000);
    expect(String(body.ms_cost)).toMatch(/^\d+(\.\d{1,3})?$/);
    expect(body.sensitivity).toBe('conservative');
    expect(body.words).toBe(60);
    expect(body.rate_limit).toBe(10_000);
    expect(body.rate_remaining).toBe(10_000 - 60);
    expect(body.dimensions.filter((d: { enabled: boolean }) => d.enabled).length).toBe(body.totalDimensions);
    expect(body.dimensions.filter((d: { detected: boolean }) => d.detected).length).toBe(body.activeDimensions);
    for (const d of body.dimensions) expect(Object.keys(d).sort()).toEqual(['detected', 'enabled', 'id', 'label']);
    for (const a of body.textAnnotations) {
      expect(typeof a.sentence).toBe('string');
      expect(Number.isInteger(a.start) && Number.isInteger(a.end)).toBe(true);
      for (const d of a.dims) expect(Object.keys(d).sort()).toEqual(['id', 'label']);
    }
    for (const b of body.bullets) {
      expect(typeof b.text).toBe('string');
      expect(PROSE.slice(b.start, b.end)).toBe(b.example);
    }
    // Issue 28: a score for every sentence, offsets into the text as sent, averaging to the passage's score.
    expect(body.sentenceScores.length).toBeGreaterThan(1);
    for (const s of body.sentenceScores) {
      expect(Object.keys(s).sort()).toEqual(['end', 'score', 'start', 'words']);
      expect(PROSE.slice(s.start, s.end).trim()).toBe(PROSE.slice(s.start, s.end));
      expect(s.score).toBeGreaterThanOrEqual(0);
      expect(s.score).toBeLessThanOrEqual(100);
    }
    expect(body.segments).toHaveLength(1);
    const words = body.sentenceScores.reduce((n: number, s: { words: number }) => n + s.words, 0);
    const mean = body.sentenceScores.reduce((n: number, s: { words: number; score: number }) => n + s.words * s.score, 0) / words;
    expect(Math.abs(mean - body.segments[0].score)).toBeLessThan(1);
    expectRateHeaders(response, 10_000, 9_940);
  });

  it('passes the requested sensitivity through', async () => {
    const { app, newKey } = makeApp();
    const response = await call(app, '/api/detect', { key: (await newKey()).key, json: { text: PROSE, sensitivity: 'aggressive' } });
    expect((await response.json()).sensitivity).toBe('aggressive');
  });

  it('accepts application/*+json and a charset parameter', async () => {
    const { app, newKey } = makeApp();
    const key = (await newKey()).key;
    for (const type of ['application/json; charset=utf-8', 'application/vnd.api+json']) {
      const response = await call(app, '/api/detect', {
        key,
        body: JSON.stringify({ text: PROSE }),
        headers: { 'content-type': type },
      });
      expect(response.status).toBe(200);
    }
  });
});

describe('authentication (401, decided before the body)', () => {
  it('answers missing_api_key without a key, even with a broken body', async () => {
    const { app } = makeApp();
    const response = await call(app, '/api/detect', { body: '{not json', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(401);
    expect((await errorOf(response)).code).toBe('missing_api_key');
    for (const h of RATE_HEADERS) expect(response.headers.get(h)).toBeNull();
  });

  it('answers invalid_api_key for an unknown key, a malformed key and a revoked key', async () => {
    const { app, store, newKey } = makeApp();
    const revoked = await newKey();
    await revokeKey(store.keys, String(revoked.id));
    for (const key of [`ak_${'x'.repeat(40)}`, 'hello', revoked.key]) {
      const response = await call(app, '/api/detect', { key, body: 'x'.repeat(10), headers: { 'content-type': 'text/plain' } });
      expect(response.status).toBe(401);
      expect((await errorOf(response)).code).toBe('invalid_api_key');
    }
  });

  it('does not need a key for /health', async () => {
    const { app } = makeApp();
    const response = await call(app, '/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      store: 'up',
      scoring: 'up',
      version: (await Bun.file('package.json').json()).version,
      modelVersion: modelVersion(),
    });
  });
});

describe('bad requests (400) carry rate-limit headers and charge nothing', () => {
  const cases: Array<[string, string, string]> = [
    ['invalid_json', '{"text": ', 'application/json'],
    ['invalid_json', '', 'application/json'],
    ['text_required', '{}', 'application/json'],
    ['text_required', '{"text": 42}', 'application/json'],
    ['text_required', '["a"]', 'application/json'],
    ['text_required', 'null', 'application/json'],
    ['invalid_sensitivity', JSON.stringify({ text: PROSE, sensitivity: 'paranoid' }), 'application/json'],
    ['invalid_sensitivity', JSON.stringify({ text: PROSE, sensitivity: 3 }), 'application/json'],
  ];
  for (const [code, body, type] of cases) {
    it(`answers ${code} for ${body.slice(0, 40) || '(empty body)'}`, async () => {
      const { app, newKey } = makeApp();
      const response = await call(app, '/api/detect', { key: (await newKey()).key, body, headers: { 'content-type': type } });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).code).toBe(code);
      expectRateHeaders(response, 10_000, 10_000);
    });
  }

  it('answers text_too_short under 20 words and says how many were found', async () => {
    const { app, newKey } = makeApp();
    const response = await call(app, '/api/detect', { key: (await newKey()).key, json: { text: words(19) } });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('text_too_short');
    expect(error.message).toContain('19');
    expect(error.message).toContain('20');
    const ok = await call(app, '/api/detect', { key: (await newKey()).key, json: { text: words(20) } });
    expect(ok.status).toBe(200);
  });
});

describe('media type and size', () => {
  it('answers 415 unsupported_media_type for text/plain or no Content-Type, with rate headers', async () => {
    const { app, newKey } = makeApp();
    const key = (await newKey()).key;
    for (const headers of [{ 'content-type': 'text/plain' }, {} as Record<string, string>]) {
      const response = await call(app, '/api/detect', { key, body: JSON.stringify({ text: PROSE }), headers });
      expect(response.status).toBe(415);
      expect((await errorOf(response)).code).toBe('unsupported_media_type');
      expectRateHeaders(response, 10_000, 10_000);
    }
  });

  it('answers 413 payload_too_large past MAX_BODY_BYTES, declared or streamed', async () => {
    const { app, newKey } = makeApp({ MAX_BODY_BYTES: '2048' });
    const key = (await newKey()).key;
    const big = JSON.stringify({ text: words(600) });
    const declared = await call(app, '/api/detect', {
      key,
      body: big,
      headers: { 'content-type': 'application/json', 'content-length': String(big.length) },
    });
    expect(declared.status).toBe(413);
    const error = await errorOf(declared);
    expect(error.code).toBe('payload_too_large');
    expect(error.message).toContain('2048');
    expectRateHeaders(declared, 10_000, 10_000);
    const stream = new Blob([big]).stream();
    const streamed = await app.handle(
      new Request('http://localhost/api/detect', {
        method: 'POST',
        body: stream,
        headers: { 'content-type': 'application/json', 'x-api-key': key },
      }),
    );
    expect(streamed.status).toBe(413);
    expect((await errorOf(streamed)).code).toBe('payload_too_large');
    const fits = await call(app, '/api/detect', { key, json: { text: words(100) } });
    expect(fits.status).toBe(200);
  });
});

describe('quota (429)', () => {
  it('answers quota_exceeded when the text needs more words than remain, with the reset and no Retry-After', async () => {
    const { app, store, newKey } = makeApp();
    const created = await newKey('free');
    await chargeWords(store.quota, created.row, 9_950);
    const response = await call(app, '/api/detect', { key: created.key, json: { text: PROSE } });
    expect(response.status).toBe(429);
    const error = await errorOf(response);
    expect(error.code).toBe('quota_exceeded');
    // How many words the text needs and how many are left, not just "exceeded".
    expect(error.message).toStartWith(
      'Not enough words left this month: this request needs 60 words and 50 of 10000 remain. The quota resets at ',
    );
    const es = await call(app, '/api/detect', { key: created.key, json: { text: PROSE }, headers: { 'accept-language': 'es' } });
    expect((await errorOf(es)).message).toStartWith(
      'No quedan palabras suficientes este mes: esta petición necesita 60 palabras y quedan 50 de 10000.',
    );
    expectRateHeaders(response, 10_000, 50);
    // Issue 28: a monthly reset is days away and retry libraries honour Retry-After; the reset is in X-RateLimit-Reset.
    expect(response.headers.get('retry-after')).toBeNull();
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    // A text that fits still passes, and exactly exhausts the month.
    const fits = await call(app, '/api/detect', { key: created.key, json: { text: words(50) } });
    expect(fits.status).toBe(200);
    expect((await fits.json()).rate_remaining).toBe(0);
    const empty = await call(app, '/api/detect', { key: created.key, json: { text: words(20) } });
    expect(empty.status).toBe(429);
    expectRateHeaders(empty, 10_000, 0);
  });

  it('answers trial_calls_exhausted after 500 trial calls, without charging', async () => {
    const { app, store, newKey } = makeApp();
    const created = await newKey('trial');
    const row = created.row;
    for (let i = 0; i < 499; i++) await chargeWords(store.quota, row, 1);
    const last = await call(app, '/api/detect', { key: created.key, json: { text: PROSE } });
    expect(last.status).toBe(200);
    const response = await call(app, '/api/detect', { key: created.key, json: { text: PROSE } });
    expect(response.status).toBe(429);
    expect((await errorOf(response)).code).toBe('trial_calls_exhausted');
    expectRateHeaders(response, 10_000, 10_000 - 499 - 60);
    expect(response.headers.get('retry-after')).toBeNull();
    expect(await getQuotaState(store.quota, row)).toMatchObject({ callsUsed: 500, used: 499 + 60 });
  });

  it('charges only successful detections', async () => {
    const { app, db, store, newKey } = makeApp();
    const created = await newKey();
    const key = created.key;
    await call(app, '/api/detect', { key, json: { text: words(5) } });
    await call(app, '/api/detect', { key, json: { text: PROSE, sensitivity: 'x' } });
    await call(app, '/api/detect', { key, body: 'oops', headers: { 'content-type': 'application/json' } });
    await call(app, '/api/detect', { key, json: { text: PROSE } });
    expect((await getQuotaState(store.quota, created.row)).used).toBe(60);
    await store.usage.flush();
    const events = db.$client.query('SELECT status, error_code AS code, words, score FROM usage_events ORDER BY id').all() as Array<
      Record<string, unknown>
    >;
    expect(events.map((e) => [e.status, e.code])).toEqual([
      [400, 'text_too_short'],
      [400, 'invalid_sensitivity'],
      [400, 'invalid_json'],
      [200, null],
    ]);
    expect(events[0].words).toBe(5);
    expect(events[3].words).toBe(60);
    expect(Number.isInteger(events[3].score)).toBe(true);
  });
});
