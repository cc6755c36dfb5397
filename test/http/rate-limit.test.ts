/**
 * Issue 28, "quota and rate semantics a client library understands", in process on SQLite: the
 * per-key request rate and its headers, quota errors a retry library can act on, 401 challenges
 * and GET /v1/limits. Across processes and instances: test/faults/rate-limits.test.ts.
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { chargeWords, getQuotaState } from '../../src/modules/quota';
import { PLANS } from '../../src/plans';
import { READS_PER_MINUTE_FLOOR } from '../../src/modules/rate';
import { call, makeApp, PROSE, words } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

type ErrorJson = { success: false; error: Record<string, unknown> };

describe('per-key request rate', () => {
  it('answers the RateLimit-Policy and RateLimit fields beside the monthly X-RateLimit-* words', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey('essential');
    const first = await call(app, '/v1/detect', { key, json: { text: PROSE } });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"requests";q=300;w=60');
    expect(first.headers.get('ratelimit')).toBe('"requests";r=299;t=1');
    expect(first.headers.get('x-ratelimit-limit')).toBe('60000');
    const second = await call(app, '/v1/detect', { key, json: { text: PROSE } });
    expect(second.headers.get('ratelimit')).toBe('"requests";r=298;t=1');
    // Reading one's usage takes from its own budget (issue 32): a `reads` bucket, the detections' untouched.
    const usage = await call(app, '/v1/usage', { key });
    expect(usage.headers.get('ratelimit-policy')).toBe(`"reads";q=${READS_PER_MINUTE_FLOOR};w=60`);
    expect(usage.headers.get('ratelimit')).toBe(`"reads";r=${READS_PER_MINUTE_FLOOR - 1};t=1`);
    const third = await call(app, '/v1/detect', { key, json: { text: PROSE } });
    expect(third.headers.get('ratelimit')).toBe('"requests";r=297;t=1');
  });

  it('still answers usage and limits after a burst of detections was refused, and they spend no detection (issue 32)', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey('free');
    // Detections up to 429: 60 at once, the 61st refused.
    const burst = await Promise.all(Array.from({ length: 61 }, () => call(app, '/v1/detect', { key, json: { text: PROSE } })));
    expect(burst.filter((r) => r.status === 200)).toHaveLength(60);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(1);
    const usage = await call(app, '/v1/usage', { key });
    expect(usage.status).toBe(200);
    expect((await usage.json()).calls.used).toBe(60);
    const limits = await call(app, '/v1/limits', { key });
    expect(limits.status).toBe(200);
    expect((await limits.json()).rate).toEqual({ requests: 60, windowSeconds: 60, reads: READS_PER_MINUTE_FLOOR });

    // And the other way: a key that read its usage and limits 100 times still has its 60 detections.
    const other = (await newKey('free')).key;
    const reads = await Promise.all(Array.from({ length: 100 }, (_, i) => call(app, i % 2 ? '/v1/usage' : '/v1/limits', { key: other })));
    expect(reads.every((r) => r.status === 200)).toBe(true);
    const detections = await Promise.all(Array.from({ length: 60 }, () => call(app, '/v1/detect', { key: other, json: { text: PROSE } })));
    expect(detections.every((r) => r.status === 200)).toBe(true);
    expect((await call(app, '/v1/detect', { key: other, json: { text: PROSE } })).status).toBe(429);
  });

  it('bounds reads too: their own budget, refused past it with rate_limited', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey('free');
    // 50 more than the budget at once: the burst takes a few hundred ms, and one read comes back every 100 ms.
    const reads = await Promise.all(
      Array.from({ length: READS_PER_MINUTE_FLOOR + 50 }, (_, i) => call(app, i % 2 ? '/v1/usage' : '/v1/limits', { key })),
    );
    const refused = reads.filter((r) => r.status === 429);
    expect(reads.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(READS_PER_MINUTE_FLOOR);
    expect(refused.length).toBeGreaterThan(0);
    expect((await refused[0].json()).error).toMatchObject({ code: 'rate_limited', unit: 'requests', limit: READS_PER_MINUTE_FLOOR });
    expect(refused[0].headers.get('ratelimit')).toMatch(/^"reads";r=0;t=\d+$/);
  });

  it('answers 60 of 200 detections a free key sends at once, charges only those, and refuses the rest with a short Retry-After', async () => {
    const { app, store, newKey } = makeApp();
    const created = await newKey('free');
    const responses = await Promise.all(
      Array.from({ length: 200 }, () => call(app, '/v1/detect', { key: created.key, json: { text: PROSE } })),
    );
    const answered = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(answered).toHaveLength(PLANS.free.requestsPerMinute);
    expect(refused).toHaveLength(200 - PLANS.free.requestsPerMinute);
    const body = (await refused[0].json()) as ErrorJson;
    expect(body.error).toMatchObject({ code: 'rate_limited', unit: 'requests', needed: 1, remaining: 0, limit: 60 });
    expect(Date.parse(body.error.resetAt as string) - Date.now()).toBeLessThanOrEqual(1_000);
    expect(body.error.message).toBe('Too many requests: this key may send 60 requests per 60 s. Try again in 1 s.');
    expect(refused[0].headers.get('retry-after')).toBe('1');
    expect(refused[0].headers.get('ratelimit')).toBe('"requests";r=0;t=60');
    // A refusal reads no quota: its answer has no monthly word headers.
    expect(refused[0].headers.get('x-ratelimit-remaining')).toBeNull();
    expect((await getQuotaState(store.quota, created.row)).used).toBe(60 * 60);
  });

  it('takes nothing for a refused request: the key is admitted again as soon as one request came back', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey('free');
    const detect = () => call(app, '/v1/detect', { key, json: { text: PROSE } });
    await Promise.all(Array.from({ length: 60 }, detect));
    for (let i = 0; i < 5; i++) expect((await detect()).status).toBe(429);
    await Bun.sleep(1_050);
    expect((await detect()).status).toBe(200);
    expect((await detect()).status).toBe(429);
  });

  it('counts per key: another key of the same plan is not affected', async () => {
    const { app, newKey } = makeApp();
    const [a, b] = [await newKey('free'), await newKey('free')];
    const detect = (key: string) => call(app, '/v1/detect', { key, json: { text: PROSE } });
    await Promise.all(Array.from({ length: 61 }, () => detect(a.key)));
    expect((await detect(a.key)).status).toBe(429);
    expect((await detect(b.key)).status).toBe(200);
  });

  it('is off with RATE_LIMITS=off: no refusals and no RateLimit fields', async () => {
    const { app, newKey } = makeApp({ RATE_LIMITS: 'off' });
    const { key } = await newKey('free');
    const responses = await Promise.all(Array.from({ length: 80 }, () => call(app, '/v1/usage', { key })));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(responses[0].headers.get('ratelimit')).toBeNull();
    expect((await (await call(app, '/v1/limits', { key })).json()).rate).toBeUndefined();
  });
});

describe('quota errors a retry library can act on', () => {
  it('answers quota_exceeded without Retry-After, with needed, remaining, limit and resetAt', async () => {
    const { app, store, newKey } = makeApp();
    const created = await newKey('free');
    await chargeWords(store.quota, created.row, 9_990);
    const response = await call(app, '/v1/detect', { key: created.key, json: { text: PROSE } });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBeNull();
    const reset = Number(response.headers.get('x-ratelimit-reset'));
    const body = (await response.json()) as ErrorJson;
    expect(body.error).toEqual({
      code: 'quota_exceeded',
      message: expect.any(String),
      unit: 'words',
      needed: 60,
      remaining: 10,
      limit: 10_000,
      resetAt: new Date(reset * 1000).toISOString(),
    });
  });

  it('answers a text larger than the whole plan with 413 exceeds_plan, never a 429', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey('free');
    const response = await call(app, '/v1/detect', { key, json: { text: words(10_001) } });
    expect(response.status).toBe(413);
    expect(response.headers.get('retry-after')).toBeNull();
    const body = (await response.json()) as ErrorJson;
    expect(body.error).toMatchObject({ code: 'exceeds_plan', unit: 'words', needed: 10_001, remaining: 10_000, limit: 10_000 });
    expect(body.error.message).toBe(
      'This request needs 10001 words, more than the 10000 words a month of the free plan: it can never fit. Split the text or the batch, or use a larger plan.',
    );
  });

  it('answers a batch larger than the whole plan with 413 exceeds_plan, and one that only needs next month with 429', async () => {
    const { app, store, newKey } = makeApp();
    const big = new FormData();
    big.append('files[]', new File([words(6_000)], 'a.txt'));
    big.append('files[]', new File([words(6_000)], 'b.txt'));
    const fresh = await newKey('free');
    const tooBig = await call(app, '/v1/detect', { key: fresh.key, body: big });
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as ErrorJson).error).toMatchObject({ code: 'exceeds_plan', needed: 12_000, limit: 10_000 });

    const spent = await newKey('free');
    await chargeWords(store.quota, spent.row, 5_000);
    const form = new FormData();
    form.append('files[]', new File([words(6_000)], 'a.txt'));
    const later = await call(app, '/v1/detect', { key: spent.key, body: form });
    expect(later.status).toBe(429);
    expect(later.headers.get('retry-after')).toBeNull();
    expect(((await later.json()) as ErrorJson).error).toMatchObject({ code: 'quota_exceeded', needed: 6_000, remaining: 5_000 });
  });
});

describe('401 challenges', () => {
  it('carries WWW-Authenticate: Bearer, naming the X-API-Key header, for a missing and an unknown key', async () => {
    const { app } = makeApp();
    const missing = await call(app, '/v1/detect', { json: { text: PROSE } });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="ai-detector", ApiKey realm="ai-detector", header="X-API-Key"');
    const unknown = await call(app, '/v1/usage', { key: 'ak_unknown' });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toBe(
      'Bearer realm="ai-detector", error="invalid_token", ApiKey realm="ai-detector", header="X-API-Key"',
    );
  });
});

describe('GET /v1/limits', () => {
  it('reports the plan and the server limits from the configuration that enforces them', async () => {
    const { app, newKey } = makeApp({ MAX_FILES: '7', MAX_BODY_BYTES: '2048', MAX_TEXT_CHARS: '300000' });
    const { key } = await newKey('trial');
    const response = await call(app, '/v1/limits', { key });
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-policy')).toBe(`"reads";q=${READS_PER_MINUTE_FLOOR};w=60`);
    expect(await response.json()).toEqual({
      plan: 'trial',
      words: { perMonth: 10_000, minPerText: 20 },
      calls: { lifetime: 500 },
      rate: { requests: 60, windowSeconds: 60, reads: READS_PER_MINUTE_FLOOR },
      single: { maxBodyBytes: 2048, maxTextChars: 300_000 },
      batch: {
        maxFiles: 7,
        maxFileBytes: 10 * 1024 * 1024,
        maxBatchBytes: 50 * 1024 * 1024,
        maxPdfPages: 300,
        maxTextChars: 300_000,
        timeBudgetSeconds: 120,
        extractTimeoutSeconds: 30,
      },
      extraction: { throttledAfter: 10, windowSeconds: 60 },
      calibrations: {
        maxProfiles: 20,
        maxTexts: 5000,
        minTextsPerLanguage: 50,
        minAiTextsPerLanguage: 50,
        minWordsPerText: 20,
        maxTextChars: 300_000,
      },
    });
  });

  it('needs a key', async () => {
    const { app } = makeApp();
    expect((await call(app, '/v1/limits')).status).toBe(401);
  });
});

describe('two kinds of limit, told apart where integrators look (issue 32)', () => {
  it('says in each header description, in docs/api.md and in the README which limit counts words and which requests', async () => {
    const { app } = makeApp();
    const spec = await (await call(app, '/swagger/json')).json();
    const headers = spec.paths['/v1/detect'].post.responses['200'].headers;
    for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
      expect([name, headers[name].description]).toEqual([name, expect.stringContaining('Monthly WORD quota')]);
    }
    for (const name of ['RateLimit-Policy', 'RateLimit']) {
      expect([name, headers[name].description]).toEqual([name, expect.stringMatching(/^REQUEST/)]);
    }
    const single = spec.components.schemas.DetectResponse.properties;
    expect(single.rate_limit.description).toContain('Monthly WORD quota');
    expect(single.rate_remaining.description).toContain('Monthly WORD quota');
    const root = join(import.meta.dir, '..', '..');
    const api = readFileSync(join(root, 'docs', 'api.md'), 'utf8');
    // Right under the route table, before the first section.
    const top = api.slice(0, api.indexOf('\n## '));
    expect(top).toContain(
      "| `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`; the body's `rate_limit`, `rate_remaining` | **words**",
    );
    expect(top).toContain('| `RateLimit-Policy`, `RateLimit` (IETF draft) | **requests**');
    const summary = readFileSync(join(root, 'README.md'), 'utf8').split('## API summary')[1].split('\n## ')[0].replace(/\s+/g, ' ');
    expect(summary).toContain("`X-RateLimit-*` headers and the body's `rate_limit`/`rate_remaining` count **words per month**");
    expect(summary).toContain('`RateLimit-Policy`/`RateLimit` count **requests per minute**');
  });
});
