import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { call, makeApp, PROSE } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** The body without the fields that differ between two calls (time, the key's words left). */
function stable(body: Record<string, unknown>) {
  const { ms_cost: _ms, rate_remaining: _left, ...rest } = body;
  return rest;
}

describe('/v1/detect', () => {
  it('answers as /api/detect does: same body, same headers, both charged the same', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey();
    const v1 = await call(app, '/v1/detect', { key, json: { text: PROSE } });
    const alias = await call(app, '/api/detect', { key, json: { text: PROSE } });
    expect([v1.status, alias.status]).toEqual([200, 200]);
    const [a, b] = [await v1.json(), await alias.json()];
    expect(stable(a)).toEqual(stable(b));
    expect(a.rate_remaining - b.rate_remaining).toBe(a.words);
    expect(Number(v1.headers.get('x-ratelimit-remaining'))).toBe(a.rate_remaining);
    expect(v1.headers.get('content-language')).toBe('en');
  });

  it('needs a key and answers the same errors', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey();
    const none = await call(app, '/v1/detect', { json: { text: PROSE } });
    expect(none.status).toBe(401);
    expect((await none.json()).error.code).toBe('missing_api_key');
    const short = await call(app, '/v1/detect', { key, json: { text: 'too short' } });
    expect((await short.json()).error.code).toBe('text_too_short');
    const get = await call(app, '/v1/detect', { method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('takes batches on /v1/detect too', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey();
    const form = new FormData();
    form.append('files[]', new File([PROSE], 'a.txt'));
    const response = await call(app, '/v1/detect', { key, body: form });
    expect(response.status).toBe(200);
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(['progress', 'result', 'complete']);
  });

  it('lists both paths in the OpenAPI document, /api/detect as an alias with the same contract', async () => {
    const { app } = makeApp();
    const spec = await (await call(app, '/swagger/json')).json();
    const v1 = spec.paths['/v1/detect'].post;
    const alias = spec.paths['/api/detect'].post;
    expect(v1.operationId).toBe('detect');
    expect(alias.operationId).toBe('detectAlias');
    expect(alias.summary).toContain('alias of POST /v1/detect');
    expect(alias.requestBody).toEqual(v1.requestBody);
    expect(alias.responses).toEqual(v1.responses);
  });
});
