/**
 * Issue 15 item 4: CORS_ORIGINS grants exactly the configured origins. Headers are checked
 * in-process; then a real server process is called from a page in Chromium, on a granted origin
 * and on one that is not (the browser is the judge of CORS).
 */
import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS } from '../../src/http/cors';
import { startServerProcess, type ServerProcess, bootstrapKeyOf } from '../fixtures/server-process';
import { BROWSER_TIMEOUT_MS, HAVE_CHROMIUM, launchBrowser } from '../web/harness';
import { call, makeApp, PROSE } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const APP = 'https://app.example.com';
const OTHER = 'https://evil.example.com';
const dir = mkdtempSync(join(tmpdir(), 'detector-cors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A browser's preflight for a JSON POST with a key. */
function preflight(origin: string) {
  return {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-api-key' },
  };
}

/** The Vary field names of a response, lower-cased. */
function vary(response: Response): string[] {
  return (response.headers.get('vary') ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
}

describe('CORS with CORS_ORIGINS set to a list', () => {
  const { app, newKey } = makeApp({ CORS_ORIGINS: `${APP}, http://localhost:5173` });

  it('answers a granted preflight 204 with the methods, the headers and a max age, before any key check', async () => {
    const response = await call(app, '/api/detect', preflight(APP));
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, DELETE');
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'X-API-Key, Authorization, Content-Type, Accept-Language, Idempotency-Key, X-Request-Id',
    );
    expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(vary(response)).toContain('origin');
    expect(await response.text()).toBe('');
  });

  it('grants nothing to another origin, a look-alike or a different port', async () => {
    for (const origin of [OTHER, 'https://app.example.com.evil.com', 'http://app.example.com', 'http://localhost:5174', 'null']) {
      const response = await call(app, '/api/detect', preflight(origin));
      expect([origin, response.status]).toEqual([origin, 204]);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('access-control-allow-methods')).toBeNull();
      expect(vary(response)).toContain('origin');
      const actual = await call(app, '/health', { headers: { origin } });
      expect(actual.headers.get('access-control-allow-origin')).toBeNull();
      expect(actual.headers.get('access-control-expose-headers')).toBeNull();
    }
  });

  it('grants and exposes the rate-limit headers on answers to a granted origin, errors included, and varies on Origin and Accept-Language', async () => {
    const { key } = await newKey();
    const ok = await call(app, '/api/detect', { key, json: { text: PROSE }, headers: { origin: APP } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(APP);
    expect(ok.headers.get('access-control-expose-headers')).toBe(
      'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, RateLimit, RateLimit-Policy, WWW-Authenticate, X-Request-Id, Idempotent-Replayed',
    );
    expect(vary(ok).sort()).toEqual(['accept-language', 'origin']);
    for (const [path, options, status] of [
      ['/api/detect', { json: { text: PROSE } }, 401],
      ['/api/detect', { key, json: { text: 'too short' } }, 400],
      ['/nowhere', {}, 404],
      ['/api/detect', { method: 'GET' }, 405],
    ] as const) {
      const response = await call(app, path, { ...options, headers: { origin: APP } });
      expect([path, response.status]).toEqual([path, status]);
      expect(response.headers.get('access-control-allow-origin')).toBe(APP);
      expect(vary(response).sort()).toEqual(['accept-language', 'origin']);
    }
    // A request without Origin still says the answer depends on it (a cache must not reuse it cross-origin).
    expect(vary(await call(app, '/health')).sort()).toEqual(['accept-language', 'origin']);
  });

  it('routes an OPTIONS that is not a preflight as before (405 with Allow)', async () => {
    const response = await call(app, '/api/detect', { method: 'OPTIONS', headers: { origin: APP } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

describe('CORS with CORS_ORIGINS=*', () => {
  const { app } = makeApp({ CORS_ORIGINS: '*' });

  it('grants every origin with a static *, and no Vary on Origin', async () => {
    const response = await call(app, '/api/detect', preflight(OTHER));
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toBe(CORS_ALLOW_HEADERS.join(', '));
    const health = await call(app, '/health');
    expect(health.headers.get('access-control-allow-origin')).toBe('*');
    expect(health.headers.get('access-control-expose-headers')).toBe(CORS_EXPOSE_HEADERS.join(', '));
    expect(vary(health)).toEqual(['accept-language']);
  });
});

describe('CORS off (the default)', () => {
  const { app } = makeApp();

  it('adds no CORS header and answers OPTIONS 405, as any method a route does not have', async () => {
    const response = await call(app, '/api/detect', preflight(APP));
    expect(response.status).toBe(405);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect((await call(app, '/health', { headers: { origin: APP } })).headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe.if(HAVE_CHROMIUM)('CORS in a browser, against a real server process', () => {
  it(
    'lets a page on a granted origin call the API and read X-RateLimit-Remaining; a page on another origin is blocked',
    async () => {
      // Two origins for one page server: 127.0.0.1 and localhost differ as origins.
      const page = Bun.serve({
        hostname: '127.0.0.1',
        port: 0,
        fetch: () => new Response('<!doctype html><title>client</title>', { headers: { 'content-type': 'text/html' } }),
      });
      const granted = `http://127.0.0.1:${page.port}`;
      const refused = `http://localhost:${page.port}`;
      let server: ServerProcess | undefined;
      const browser = await launchBrowser();
      try {
        server = await startServerProcess(['bun', 'src/main.ts', 'serve'], {
          cwd: ROOT,
          env: { DATABASE_PATH: join(dir, 'browser.sqlite'), WORKERS: '1', CORS_ORIGINS: granted },
        });
        const key = await bootstrapKeyOf(server);
        const script = async ({ api, key, text }: { api: string; key: string; text: string }) => {
          try {
            const response = await fetch(`${api}/api/detect`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-api-key': key, 'accept-language': 'es' },
              body: JSON.stringify({ text }),
            });
            const body = await response.json();
            return { status: response.status, remaining: response.headers.get('x-ratelimit-remaining'), words: body.words };
          } catch (error) {
            return { error: String(error) };
          }
        };
        await browser.page.goto(granted);
        expect(await browser.page.evaluate(script, { api: server.base, key, text: PROSE })).toEqual({
          status: 200,
          remaining: '9940',
          words: 60,
        });
        await browser.page.goto(refused);
        expect(await browser.page.evaluate(script, { api: server.base, key, text: PROSE })).toEqual({
          error: 'TypeError: Failed to fetch',
        });
        // The refused page's request never got past the preflight: nothing was charged.
        const usage = await fetch(`${server.base}/api/detect`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          body: JSON.stringify({ text: PROSE }),
        });
        expect(usage.headers.get('x-ratelimit-remaining')).toBe('9880');
      } finally {
        await browser.close();
        await server?.stop();
        page.stop(true);
      }
    },
    BROWSER_TIMEOUT_MS * 2,
  );
});
