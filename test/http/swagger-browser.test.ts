import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { VERDICT_KEYS } from '../../src/contract';
import { EXAMPLES } from '../../src/modules/docs/examples';
import { BROWSER_TIMEOUT_MS, HAVE_CHROMIUM, launchBrowser, type TestBrowser } from '../web/harness';
import { detector, freshStore, keyOn } from './helpers';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Screenshots land here (gitignored). */
const ARTIFACTS = join(import.meta.dir, '..', 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

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

/** Opens /swagger with the test key authorized (persistAuthorization keeps it across tests; this makes each test stand alone). */
async function openAuthorized(page: NonNullable<typeof browser>['page']): Promise<void> {
  await page.goto(`${base}/swagger`);
  await page.click('button.authorize');
  const input = page.locator('.auth-container input[type="text"], .auth-container input[type="password"]').first();
  if (await input.count()) {
    await input.fill(key);
    await page.locator('.auth-btn-wrapper button.authorize').first().click();
  }
  await page.click('button.btn-done');
}

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

  it('"Try it out" leaves Idempotency-Key empty, so a second try is a new request, not a replay (issue 28)', async () => {
    const page = browser!.page;
    await openAuthorized(page);
    await page.click('.opblock-summary-path[data-path="/v1/detect"]');
    await page.click('button.try-out__btn');
    expect(await page.inputValue('tr[data-param-name="Idempotency-Key"] input')).toBe('');
    const replayed: (string | undefined)[] = [];
    for (let i = 0; i < 2; i++) {
      const answered = page.waitForResponse((r) => r.url().startsWith(`${base}/v1/detect`));
      await page.click('button.execute');
      const response = await answered;
      expect(response.status()).toBe(200);
      expect(response.request().headers()['idempotency-key']).toBeUndefined();
      replayed.push(response.headers()['idempotent-replayed']);
    }
    expect(replayed).toEqual([undefined, undefined]);
  });

  it('shows a batch answer (NDJSON) as its lines, not "can\'t parse JSON" (issue 28)', async () => {
    const page = browser!.page;
    await openAuthorized(page);
    // Batch has its own operation (issue 45 item 8): one request and one answer media type.
    await page.click('.opblock-summary-path[data-path="/v1/detect/batch"]');
    await page.click('button.try-out__btn');
    await page
      .locator('.opblock-section-request-body input[type="file"]')
      .first()
      .setInputFiles({
        name: 'essay.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from(EXAMPLES.single.request.text),
      });
    const answered = page.waitForResponse((r) => r.url().startsWith(`${base}/v1/detect/batch`));
    await page.click('button.execute');
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toStartWith('application/x-ndjson');
    const shown = page.locator('.live-responses-table .response-col_description pre').first();
    await shown.waitFor();
    const text = (await shown.textContent()) ?? '';
    expect(text).not.toContain("can't parse JSON");
    const lines = JSON.parse(text);
    expect(lines.map((l: { type: string }) => l.type)).toEqual(['progress', 'result', 'complete']);
    expect(lines[1].fileName).toBe('essay.txt');
    expect(lines[1].verdictKey).toBe(EXAMPLES.single.response.verdictKey);
    await page.screenshot({ path: join(ARTIFACTS, 'swagger-ndjson.png'), fullPage: false });
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
    await page.click('.opblock-summary-path[data-path="/v1/detect/batch"]');
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

  it('lists BatchLine under Schemas as a oneOf of the four named line types, not (any | any | any | any) (issue 28)', async () => {
    const page = browser!.page;
    await page.goto(`${base}/swagger`);
    await page.waitForSelector('section.models');
    const batchLine = page.locator('section.models article[data-json-schema-level="0"]', {
      has: page.locator('.json-schema-2020-12__title', { hasText: /^BatchLine$/ }),
    });
    // Collapsed, as a reader first sees it.
    expect(await batchLine.textContent()).toContain('(object | object | object | object)');
    await batchLine.locator('.json-schema-2020-12-expand-deep-button').first().click();
    await page.waitForFunction(() => document.querySelector('section.models')?.textContent?.includes('#3 BatchCompleteLine'));
    const text = (await batchLine.textContent()) ?? '';
    for (const [i, name] of ['BatchProgressLine', 'BatchResultLine', 'BatchErrorLine', 'BatchCompleteLine'].entries()) {
      expect(text).toContain(`#${i} ${name}`);
    }
    expect(text).not.toContain('any');
  });
});
