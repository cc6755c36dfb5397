import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { chooseRequestId } from '../../src/http/request-id';
import { call, makeApp, PROSE } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('keeps a valid id and replaces anything else with a fresh UUID', () => {
    expect(chooseRequestId('abc-123_X.y')).toBe('abc-123_X.y');
    expect(chooseRequestId('a'.repeat(128))).toBe('a'.repeat(128));
    for (const bad of [null, '', 'a'.repeat(129), 'has space', 'quote"', 'new\nline', 'slash/x', 'ñ']) {
      expect(chooseRequestId(bad)).toMatch(UUID);
    }
    expect(chooseRequestId(null)).not.toBe(chooseRequestId(null));
  });

  it('echoes a valid X-Request-Id on a 200 and writes it in the log line', async () => {
    const { app, logs, newKey } = makeApp();
    const { key } = await newKey();
    const response = await call(app, '/api/detect', { key, json: { text: PROSE }, headers: { 'x-request-id': 'support-ticket-42' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('support-ticket-42');
    const line = JSON.parse(logs.at(-1) as string);
    expect(line.event).toBe('request');
    expect(line.requestId).toBe('support-ticket-42');
    expect(line.status).toBe(200);
  });

  it('answers every kind of error with an id, logged with the same id', async () => {
    const { app, logs, newKey } = makeApp();
    const { key } = await newKey();
    const cases = [
      ['/api/detect', { json: { text: PROSE } }, 401],
      ['/api/detect', { key, json: { text: 'too short' } }, 400],
      ['/api/detect', { key, body: 'x', headers: { 'content-type': 'text/plain' } }, 415],
      ['/nowhere', {}, 404],
      ['/api/detect', { method: 'GET' }, 405],
      ['/health', {}, 200],
      ['/swagger/json', {}, 200],
    ] as const;
    for (const [path, options, status] of cases) {
      const before = logs.length;
      const response = await call(app, path, options);
      expect([path, response.status]).toEqual([path, status]);
      const id = response.headers.get('x-request-id') as string;
      expect(id).toMatch(UUID);
      const logged = logs
        .slice(before)
        .map((l) => JSON.parse(l))
        .find((l) => l.event === 'request');
      expect(logged?.requestId).toBe(id);
    }
  });

  it('replaces an id that is too long or has characters outside the safe set', async () => {
    const { app } = makeApp();
    for (const bad of ['a'.repeat(129), 'x y', '<script>']) {
      const response = await call(app, '/health', { headers: { 'x-request-id': bad } });
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    }
    const two = await Promise.all([call(app, '/health'), call(app, '/health')]);
    expect(two[0].headers.get('x-request-id')).not.toBe(two[1].headers.get('x-request-id'));
  });

  it('puts the id on a batch stream and on a CORS preflight', async () => {
    const { app, newKey } = makeApp({ CORS_ORIGINS: '*' });
    const { key } = await newKey();
    const form = new FormData();
    form.append('files[]', new File([PROSE], 'a.txt'));
    const batch = await call(app, '/api/detect', { key, body: form, headers: { 'x-request-id': 'batch-1' } });
    expect(batch.status).toBe(200);
    expect(batch.headers.get('x-request-id')).toBe('batch-1');
    expect((await batch.text()).trim().split('\n').at(-1)).toContain('"complete"');
    const preflight = await call(app, '/api/detect', {
      method: 'OPTIONS',
      headers: { origin: 'https://x.example', 'access-control-request-method': 'POST', 'x-request-id': 'pre-1' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('x-request-id')).toBe('pre-1');
  });
});
