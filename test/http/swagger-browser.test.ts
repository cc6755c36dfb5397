import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { BROWSER_TIMEOUT_MS, HAVE_CHROMIUM, launchBrowser, type TestBrowser } from '../web/harness';
import { detector, freshStore } from './helpers';

const store = freshStore();
const app = createApp({ config: loadConfig({ BOOTSTRAP_KEY: '0' }), store, detector: detector() });
let browser: TestBrowser | undefined;
let base = '';

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  app.listen({ port: 0, hostname: '127.0.0.1' });
  base = `http://127.0.0.1:${app.server!.port}`;
  browser = await launchBrowser();
}, BROWSER_TIMEOUT_MS); // chromium can take more than bun's 5 s default to start on a loaded machine
afterAll(async () => {
  await browser?.close();
  await app.stop();
  await store.close();
});

describe.if(HAVE_CHROMIUM)('Swagger UI in a browser', () => {
  it('renders offline: every request stays on the app, the API and its key scheme are shown', async () => {
    const page = browser!.page;
    const foreign: string[] = [];
    // Simulate no internet access: anything not served by the app fails.
    await page.route('**/*', (route) => {
      if (route.request().url().startsWith(base)) return route.continue();
      foreign.push(route.request().url());
      return route.abort();
    });
    await page.goto(`${base}/swagger`);
    await page.waitForSelector('.swagger-ui .info .title', { timeout: 15_000 });
    expect(await page.textContent('.swagger-ui .info .title')).toContain('AI Text Detector API');
    await page.waitForSelector('.opblock-summary-path[data-path="/api/detect"]', { timeout: 15_000 });
    expect(await page.isVisible('button.authorize')).toBe(true);
    expect(foreign).toEqual([]);
  });
});
