import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { SENT_ERROR_CODES } from '../../src/http/errors';
import { call, makeApp, PROSE } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

describe('unknown paths and methods', () => {
  it('answers 404 not_found in the error body shape', async () => {
    const { app } = makeApp();
    for (const path of ['/nope', '/api', '/api/detect/extra', '/swagger/assets/nope.js']) {
      const response = await call(app, path);
      expect(response.status).toBe(404);
      const body = await response.json();
      expect(body).toEqual({ success: false, error: { code: 'not_found', message: expect.any(String) } });
    }
  });

  it('answers 405 method_not_allowed with an Allow header', async () => {
    const { app } = makeApp();
    for (const [method, path, allow] of [
      ['GET', '/api/detect', 'POST'],
      ['PUT', '/api/detect', 'POST'],
      ['POST', '/health', 'GET'],
      ['DELETE', '/swagger/json', 'GET'],
      ['POST', '/swagger/assets/swagger-ui.css', 'GET'],
    ]) {
      const response = await call(app, path, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe(allow);
      expect((await response.json()).error.code).toBe('method_not_allowed');
    }
  });
});

describe('a trailing slash', () => {
  // Before: POST /api/detect/ with a valid key answered 401 missing_api_key (the router served it,
  // the key check did not see it as the protected route) and GET /api/detect/ answered 404.
  it('routes /api/detect/ exactly as /api/detect: key check, detection, errors, 405', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey();
    for (const path of ['/api/detect', '/api/detect/']) {
      const ok = await call(app, path, { key, json: { text: PROSE } });
      expect([path, ok.status]).toEqual([path, 200]);
      expect(await ok.json()).toMatchObject({ success: true, words: 60 });
      const outcomes = [
        [await call(app, path, { json: { text: PROSE } }), 401, 'missing_api_key'],
        [await call(app, path, { key: 'ak_not-a-real-key', json: { text: PROSE } }), 401, 'invalid_api_key'],
        [await call(app, path, { key, body: '{"text":', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json'],
        [await call(app, path, { key, method: 'GET' }), 405, 'method_not_allowed'],
      ] as const;
      for (const [response, status, code] of outcomes) {
        expect([path, response.status, (await response.json()).error.code]).toEqual([path, status, code]);
      }
      expect((await call(app, path, { method: 'DELETE' })).headers.get('allow')).toBe('POST');
    }
  });

  it('serves the other routes with or without it, and leaves double slashes and the document alone', async () => {
    const { app } = makeApp();
    for (const path of ['/health', '/swagger', '/swagger/json', '/assets/app.js']) {
      expect([path, (await call(app, `${path}/`)).status]).toEqual([path, 200]);
      const wrongMethod = await call(app, `${path}/`, { method: 'PUT' });
      expect([path, wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([path, 405, 'GET']);
    }
    for (const path of ['//', '/api/detect//', '/health//']) {
      expect([path, (await call(app, path, { method: path === '/api/detect//' ? 'POST' : 'GET' })).status]).toEqual([path, 404]);
    }
    const spec = await (await call(app, '/swagger/json')).json();
    expect(Object.keys(spec.paths).sort()).toEqual([
      '/api/detect',
      '/health',
      '/v1/calibrations',
      '/v1/calibrations/{id}',
      '/v1/detect',
      '/v1/detect/batch',
      '/v1/limits',
      '/v1/usage',
    ]);
  });
});

describe('docs', () => {
  it('serves Swagger UI from its own assets only (works offline)', async () => {
    const { app } = makeApp();
    const page = await call(app, '/swagger');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets).toContain('/swagger/assets/swagger-ui-bundle.js');
    expect(assets).toContain('/swagger/assets/swagger-ui.css');
    for (const asset of assets) {
      const response = await call(app, asset);
      expect(response.status).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
    expect(html).toContain('/swagger/json');
  });

  it('answers 404 for asset names that are inherited object members, not 500', async () => {
    const { app } = makeApp();
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const response = await call(app, `/swagger/assets/${name}`);
      expect([name, response.status]).toEqual([name, 404]);
      expect((await response.json()).error.code).toBe('not_found');
    }
  });

  it('describes the API key scheme, every field, header and error code, with examples', async () => {
    const { app } = makeApp();
    const response = await call(app, '/swagger/json');
    expect(response.status).toBe(200);
    const spec = await response.json();
    expect(spec.info.version).toBe((await Bun.file('package.json').json()).version);
    expect(spec.components.securitySchemes.ApiKeyAuth).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    );
    const op = spec.paths['/api/detect'].post;
    expect(op.security).toEqual([{ ApiKeyAuth: [] }, { BearerAuth: [] }]);
    expect(op.requestBody.content['application/json'].example.text).toBeString();
    expect(Object.keys(spec.components.schemas.DetectRequest.properties).sort()).toEqual(['calibration', 'sensitivity', 'text']);
    const ok = op.responses['200'];
    expect(ok.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/DetectResponse' });
    const fields = Object.keys(spec.components.schemas.DetectResponse.properties);
    for (const field of [
      'success',
      'score',
      'verdict',
      'docTypeLabel',
      'totalDimensions',
      'activeDimensions',
      'ms_cost',
      'rate_limit',
      'rate_remaining',
      'dimensions',
      'textAnnotations',
      'bullets',
    ]) {
      expect(fields).toContain(field);
      expect(Object.keys(ok.content['application/json'].example)).toContain(field);
    }
    expect(Object.keys(ok.headers)).toEqual(
      expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Content-Language']),
    );
    expect(Object.keys(op.responses['429'].headers)).toContain('Retry-After');
    // Batch mode has its own operation, one media type each way (issue 45 item 8).
    const batch = spec.paths['/v1/detect/batch'].post;
    expect(Object.keys(ok.content)).toEqual(['application/json']);
    expect(Object.keys(batch.responses['200'].content)).toEqual(['application/x-ndjson']);
    const ndjson = Object.values(batch.responses['200'].content['application/x-ndjson'].examples).map(
      (e) => (e as { value: { type: string } }).value.type,
    );
    expect(ndjson).toEqual(['progress', 'result', 'progress', 'result', 'progress', 'error', 'complete']);
    expect(batch.requestBody.content['multipart/form-data'].schema).toEqual({ $ref: '#/components/schemas/BatchForm' });
    expect(spec.components.schemas.BatchForm.properties['files[]'].type).toBe('array');
    // Every operation's responses: the calibration routes document the codes only they answer (issue 34).
    const operations = Object.values(spec.paths).flatMap((path) => Object.values(path as object)) as Array<{ responses: object }>;
    const responses = [...operations.flatMap((operation) => Object.values(operation.responses)), spec.components.responses.Error] as Array<{
      content?: Record<string, { examples?: object }>;
    }>;
    const documented = responses.flatMap((r) => Object.keys(r.content?.['application/json']?.examples ?? {}));
    expect(Object.keys(op.responses['503'].headers)).toContain('Retry-After');
    // 499 client_closed is only logged: the client is gone, nothing is sent.
    for (const code of SENT_ERROR_CODES) expect(documented).toContain(code);
    expect(documented).not.toContain('client_closed');
    expect(spec.paths['/health'].get).toBeDefined();
    expect(spec.paths['/swagger']).toBeUndefined();
    expect(JSON.stringify(spec.info.description)).toContain('not_found');
  });
});
