import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { VERDICT_KEYS } from '../../src/contract';
import { EXAMPLES } from '../../src/modules/docs/examples';
import { BROWSER_TIMEOUT_MS, HAVE_CHROMIUM, launchBrowser, type TestBrowser } from '../web/harness';
import { detector, freshStore, keyOn } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const store = freshStore();
const app = createApp({ config: loadConfig({ BOOTSTRAP_KEY: '0' }), store, detector: detector() });
let key = '';
let browser: TestBrowser | undefined;
let base = '';

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  app.listen({ port: 0, hostname: '127.0.0.1' });
  base = `http://127.0.0.1:${app.server!.port}`;
  key = (await keyOn(store, 'free', 'swagger-ui')).key;
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

  it('"Try it out" answers in English by default, with the example body', async () => {
    const page = browser!.page;
    await page.goto(`${base}/swagger`);
    await page.click('button.authorize');
    await page.fill('.auth-container input[type="text"], .auth-container input[type="password"]', key);
    await page.click('.auth-btn-wrapper button.authorize');
    await page.click('button.btn-done');
    await page.click('.opblock-summary-path[data-path="/api/detect"]');
    await page.click('button.try-out__btn');
    expect(await page.inputValue('tr[data-param-name="Accept-Language"] input')).toBe('en');
    const answered = page.waitForResponse((r) => r.url().startsWith(`${base}/api/detect`));
    await page.click('button.execute');
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-language']).toBe('en');
    const body = await response.json();
    // The pre-filled body is the documented example: the answer is the documented one, in English.
    expect(body.verdictKey).toBe(EXAMPLES.single.response.verdictKey);
    expect(body.verdict).toBe(EXAMPLES.single.response.verdict);
    expect(body.verdictKey).toBe('ai');
  });

  it('shows integer fields as integer and enumerations with their values', async () => {
    const page = browser!.page;
    await page.goto(`${base}/swagger`);
    await page.click('.opblock-summary-path[data-path="/api/detect"]');
    await page.locator('.responses-wrapper button.tablinks[data-name="model"]').first().click();
    const schema = (await page.locator('.responses-wrapper .model-box').first().textContent()) ?? '';
    expect(schema).toMatch(/score\W*(Collapse all|Expand all)\W*integer\s*\[0, 100\]/);
    expect(schema).toMatch(/rate_remaining\W*(Collapse all|Expand all)\W*integer/);
    for (const verdict of VERDICT_KEYS) expect(schema).toContain(`"${verdict}"`);
  });

  it('shows the batch stream as a oneOf of the four named line types with its discriminator, not (any | any | any | any)', async () => {
    const page = browser!.page;
    await page.goto(`${base}/swagger`);
    await page.click('.opblock-summary-path[data-path="/v1/detect"]');
    await page.locator('.responses-wrapper select.content-type').first().selectOption('application/x-ndjson');
    await page.locator('.responses-wrapper button.tablinks[data-name="model"]').first().click();
    const schema = (await page.locator('.responses-wrapper .model-box').first().textContent()) ?? '';
    // Each alternative is named after its component, with its fields; the discriminator is shown.
    for (const [i, name] of ['BatchProgressLine', 'BatchResultLine', 'BatchErrorLine', 'BatchCompleteLine'].entries()) {
      expect(schema).toContain(`#${i} ${name}`);
    }
    expect(schema).toContain('(object | object | object | object)');
    expect(schema).toMatch(/Discriminator.*type.*progress#\/components\/schemas\/BatchProgressLine/);
    expect(schema).not.toContain('any');
  });
});
