import { describe, expect, it } from 'bun:test';
import { SENT_ERROR_CODES } from '../../src/http/errors';
import { call, makeApp } from './helpers';

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
    expect(op.security).toEqual([{ ApiKeyAuth: [] }]);
    expect(op.requestBody.content['application/json'].example.text).toBeString();
    expect(Object.keys(spec.components.schemas.DetectRequest.properties).sort()).toEqual(['sensitivity', 'text']);
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
    const ndjson = Object.values(ok.content['application/x-ndjson'].examples).map((e) => (e as { value: { type: string } }).value.type);
    expect(ndjson).toEqual(['progress', 'result', 'progress', 'result', 'progress', 'error', 'complete']);
    expect(op.requestBody.content['multipart/form-data'].schema).toEqual({ $ref: '#/components/schemas/BatchForm' });
    expect(spec.components.schemas.BatchForm.properties['files[]'].type).toBe('array');
    const responses = [...Object.values(op.responses), spec.components.responses.Error] as Array<{
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
