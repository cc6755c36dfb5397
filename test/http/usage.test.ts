import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { call, makeApp, PROSE } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** GET /v1/usage with the key in X-API-Key. */
const usage = (app: ReturnType<typeof makeApp>['app'], key: string) => call(app, '/v1/usage', { key });

describe('GET /v1/usage', () => {
  it('reports a fresh key: its plan, this UTC month, the whole quota, no calls, no trial cap', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey('essential');
    const response = await usage(app, key);
    expect(response.status).toBe(200);
    const now = new Date();
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
    expect(await response.json()).toEqual({
      plan: 'essential',
      period: { start, end },
      words: { limit: 60_000, used: 0, remaining: 60_000 },
      calls: { used: 0 },
      trial: null,
    });
    expect(response.headers.get('x-ratelimit-limit')).toBe('60000');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('60000');
    expect(Number(response.headers.get('x-ratelimit-reset')) * 1000).toBe(Date.parse(end));
  });

  it('agrees with the X-RateLimit-* headers of a detection, and reading it charges nothing', async () => {
    const { app, store, newKey } = makeApp();
    const { key, id } = await newKey('free');
    const detection = await call(app, '/v1/detect', { key, json: { text: PROSE } });
    const body = await detection.json();
    const form = new FormData();
    form.append('files[]', new File([PROSE], 'a.txt'));
    form.append('files[]', new File([PROSE], 'b.txt'));
    const batch = await call(app, '/v1/detect', { key, body: form });
    await batch.text();
    const remaining = Number(batch.headers.get('x-ratelimit-remaining'));
    expect(remaining).toBe(10_000 - 3 * body.words);
    for (let i = 0; i < 3; i++) {
      const response = await usage(app, key);
      const report = await response.json();
      expect(report.words).toEqual({ limit: 10_000, used: 3 * body.words, remaining });
      // A batch is one call, whatever its number of files.
      expect(report.calls).toEqual({ used: 2 });
      expect(Number(response.headers.get('x-ratelimit-remaining'))).toBe(remaining);
      expect(Date.parse(report.period.end) / 1000).toBe(Number(detection.headers.get('x-ratelimit-reset')));
    }
    // Usage reads are logged, not recorded as requests of the key (two detections only).
    await store.usage.flush();
    expect(await store.usage.countForKey(id)).toBe(2);
  });

  it('shows a trial key its lifetime calls left', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey('trial');
    expect((await (await usage(app, key)).json()).trial).toEqual({ callsLimit: 500, callsRemaining: 500 });
    expect((await call(app, '/v1/detect', { key, json: { text: PROSE } })).status).toBe(200);
    const report = await (await usage(app, key)).json();
    expect(report.plan).toBe('trial');
    expect(report.trial).toEqual({ callsLimit: 500, callsRemaining: 499 });
    expect(report.calls).toEqual({ used: 1 });
  });

  it('needs a key, in X-API-Key or as Authorization: Bearer', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey();
    const none = await call(app, '/v1/usage');
    expect(none.status).toBe(401);
    expect((await none.json()).error.code).toBe('missing_api_key');
    const bearer = await call(app, '/v1/usage', { headers: { authorization: `Bearer ${key}` } });
    expect(bearer.status).toBe(200);
    expect((await bearer.json()).words.limit).toBe(10_000);
    const lower = await call(app, '/v1/usage', { headers: { authorization: `bearer  ${key}` } });
    expect(lower.status).toBe(200);
    for (const authorization of ['Bearer ak_unknown', `Basic ${btoa(`user:${key}`)}`, 'Bearer']) {
      const refused = await call(app, '/v1/usage', { headers: { authorization } });
      expect([authorization, refused.status]).toEqual([authorization, 401]);
      expect((await refused.json()).error.code).toBe('invalid_api_key');
    }
    expect((await call(app, '/v1/usage', { method: 'POST', key })).status).toBe(405);
  });

  it('says that another Authorization scheme is not supported, even with a valid key (issue 32)', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey();
    const token = await call(app, '/v1/usage', { headers: { authorization: `Token ${key}` } });
    expect(token.status).toBe(401);
    const body = await token.json();
    expect(body.error.code).toBe('invalid_api_key');
    expect(body.error.message).toBe(
      'The Authorization scheme "Token" is not supported: send the key as X-API-Key: <key> or Authorization: Bearer <key>.',
    );
    const spanish = await call(app, '/v1/usage?lang=es', { headers: { authorization: `Basic ${btoa('u:p')}` } });
    expect((await spanish.json()).error.message).toStartWith('El esquema de Authorization "Basic" no está admitido');
    // A scheme that is not an RFC 9110 token is not quoted back; an unknown key keeps its own message.
    const odd = await call(app, '/v1/usage', { headers: { authorization: `<script> ${key}` } });
    expect((await odd.json()).error.message).toBe('The API key is unknown or has been revoked.');
    const unknown = await call(app, '/v1/usage', { headers: { authorization: 'Bearer ak_unknown' } });
    expect((await unknown.json()).error.message).toBe('The API key is unknown or has been revoked.');
    // X-API-Key still wins over any Authorization header.
    expect((await call(app, '/v1/usage', { key, headers: { authorization: 'Token whatever' } })).status).toBe(200);
  });

  it('takes Authorization: Bearer on /v1/detect too, and X-API-Key wins when both are sent', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey();
    const bearer = await call(app, '/v1/detect', { json: { text: PROSE }, headers: { authorization: `Bearer ${key}` } });
    expect(bearer.status).toBe(200);
    const both = await call(app, '/v1/detect', { key, json: { text: PROSE }, headers: { authorization: 'Bearer ak_wrong' } });
    expect(both.status).toBe(200);
  });

  it('is in the OpenAPI document with its schema and both key schemes', async () => {
    const { app } = makeApp();
    const spec = await (await call(app, '/swagger/json')).json();
    const operation = spec.paths['/v1/usage'].get;
    expect(operation.security).toEqual([{ ApiKeyAuth: [] }, { BearerAuth: [] }]);
    expect(operation.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Usage' });
    expect(Object.keys(spec.components.schemas.Usage.properties)).toEqual(['plan', 'period', 'words', 'calls', 'trial']);
    expect(spec.components.securitySchemes.BearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
