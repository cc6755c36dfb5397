/** End-to-end: the playground page in Debian's chromium against the real server (issue 7). */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Response } from 'playwright-core';
import { STRINGS } from '../../src/web/strings.ts';
import { contrastFailures } from './contrast.ts';
import { BROWSER_TIMEOUT_MS, CHROMIUM_PATH, HAVE_CHROMIUM, launchBrowser, startServer, type TestBrowser, type TestServer } from './harness.ts';

/** Screenshots land here (gitignored); docs/playground.png is a copy of the result view. */
const ARTIFACTS = join(import.meta.dir, '..', 'artifacts');

/** Per-test budget: a timeout would kill chromium and fail every later test, so keep it generous. */

/** Machine-flavoured prose, long enough for several sentences to be judged. */
const ESSAY =
  'In today’s fast-paced world, it is important to note that technology plays a crucial role in our daily lives. ' +
  'Moreover, it offers numerous benefits that enhance productivity and foster innovation across many industries. ' +
  'Furthermore, by leveraging these tools, organizations can streamline their operations and unlock new opportunities. ' +
  'My neighbour’s dog barked at the bin lorry again this morning, which was funny. ' +
  'Ultimately, embracing this transformation is essential for long-term success in a competitive landscape.';

/** A second file in Markdown, so the batch crosses two extractors. */
const NOTES_MD =
  '# Field notes\n\nWe walked up the ridge before breakfast and the fog sat in the valley like milk. ' +
  'Nobody had packed enough water, so we shared the last bottle and argued about the map. ' +
  'In conclusion, it is worth noting that careful planning plays a vital role in every successful hike.\n';

if (!HAVE_CHROMIUM) {
  console.warn(`[playground] skipping the browser tests: ${CHROMIUM_PATH} is absent (apt-get install -y chromium).`);
}

function isDetect(res: Response): boolean {
  return res.url().endsWith('/api/detect') && res.request().method() === 'POST';
}

/** Clicks Analyze (on the Text tab) and returns the API's answer the page received. */
async function analyze(page: Page): Promise<Response> {
  await page.click('#tab-text');
  const [res] = await Promise.all([page.waitForResponse(isDetect), page.click('#analyze')]);
  return res;
}

describe.skipIf(!HAVE_CHROMIUM)('playground page in chromium', () => {
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = await startServer();
    browser = await launchBrowser();
    page = browser.page;
    await page.goto(server.url + '/');
  }, BROWSER_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, BROWSER_TIMEOUT_MS);

  it('highlights exactly the annotated sentences and shows the score on the gauge', async () => {
    await page.fill('#api-key', server.key);
    await page.fill('#text', ESSAY);
    expect(await page.getAttribute('#word-count', 'data-words')).toBe(String(ESSAY.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)!.length));
    const res = await analyze(page);
    expect(res.status()).toBe(200);
    const body = await res.json();
    await page.waitForSelector('#result:not([hidden])');
    expect(await page.locator('#annotated mark.flag').count()).toBe(body.textAnnotations.length);
    expect(await page.textContent('#gauge-score')).toBe(String(body.score));
    expect(await page.getAttribute('#gauge', 'aria-valuenow')).toBe(String(body.score));
    expect(await page.textContent('#verdict')).toBe(body.verdict);
    expect(await page.textContent('#words-remaining')).toBe(Number(res.headers()['x-ratelimit-remaining']).toLocaleString('en'));
    // Detected dimensions come first in the checklist.
    const states = await page.locator('#dimensions li').evaluateAll((items) => items.map((li) => li.classList.contains('on')));
    expect(states).toEqual([...states].sort((a, b) => Number(b) - Number(a)));
    await page.screenshot({ path: join(ARTIFACTS, 'playground-result.png'), fullPage: true });
    expect(await contrastFailures(page)).toEqual([]);
  }, BROWSER_TIMEOUT_MS);

  it('shows on focus which dimensions flagged a sentence, and scrolls to a bullet’s passage', async () => {
    const body = await (await analyze(page)).json();
    await page.waitForSelector('#result:not([hidden])');
    if (body.textAnnotations.length > 0) {
      const first = page.locator('#annotated mark.flag').first();
      await first.focus();
      const tip = first.locator('.tip');
      expect(await tip.isVisible()).toBe(true);
      expect(await contrastFailures(page)).toEqual([]);
      for (const dim of body.textAnnotations[0].dims) expect(await tip.textContent()).toContain(dim.label);
      await page.keyboard.press('Escape');
      expect(await tip.isVisible()).toBe(false);
    }
    if (body.bullets.length > 0) {
      await page.locator('#bullets button.passage').first().click();
      const highlighted = await page.evaluate(() => [...(CSS.highlights.get('passage') ?? [])].map((r) => r.toString()));
      expect(highlighted).toEqual([body.bullets[0].example]);
    }
  }, BROWSER_TIMEOUT_MS);

  it('switches the interface and the API labels to Spanish', async () => {
    await page.check('#lang-es');
    expect(await page.textContent('h1')).toBe(STRINGS.es.title);
    expect(await page.textContent('#analyze')).toBe(STRINGS.es.analyze);
    expect(await page.textContent('label[for="api-key"]')).toBe(STRINGS.es.apiKey);
    expect(await page.getAttribute('html', 'lang')).toBe('es');
    const res = await analyze(page);
    expect(res.request().headers()['accept-language']).toBe('es');
    const body = await res.json();
    expect(res.headers()['content-language']).toStartWith('es');
    await page.waitForSelector('#result:not([hidden])');
    expect(await page.textContent('#verdict')).toBe(body.verdict);
    expect(await page.textContent('#result-heading')).toBe(STRINGS.es.resultHeading);
    await page.check('#lang-en');
  }, BROWSER_TIMEOUT_MS);

  it('streams a two-file batch into the progress bar and the table, and exports CSV', async () => {
    await page.click('#tab-files');
    // Dropping files on the zone chooses them, as the file picker does.
    const dropped = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['dropped text'], 'dropped.txt', { type: 'text/plain' }));
      return dt;
    });
    await page.dispatchEvent('#drop-zone', 'drop', { dataTransfer: dropped });
    expect(await page.locator('#file-list li').allTextContents()).toEqual(['dropped.txt']);
    await page.setInputFiles('#files', [
      { name: 'essay.txt', mimeType: 'text/plain', buffer: Buffer.from(ESSAY) },
      { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from(NOTES_MD) },
    ]);
    await page.click('#analyze-files');
    await page.waitForFunction(
      () => document.getElementById('batch-count')?.textContent === '2/2' || !document.getElementById('files-error')?.hidden,
      undefined,
      { timeout: BROWSER_TIMEOUT_MS - 10_000 },
    );
    expect(await page.textContent('#files-error')).toBe('');
    expect(await page.textContent('#batch-count')).toBe('2/2');
    expect(await page.locator('#batch-rows tr').count()).toBe(2);
    expect(await page.locator('#batch-rows tr.row-done').count()).toBe(2);
    expect(await page.locator('#batch-rows th').allTextContents()).toEqual(['essay.txt', 'notes.md']);
    expect(await page.getAttribute('#batch-progress', 'value')).toBe('2');
    await page.screenshot({ path: join(ARTIFACTS, 'playground-batch.png'), fullPage: true });
    expect(await contrastFailures(page)).toEqual([]);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-csv')]);
    const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(csv).toHaveLength(3);
    expect(csv[0]).toStartWith('file,words,score,verdict');
  }, BROWSER_TIMEOUT_MS);

  it('shows the localized 401 message and asks for a key when the key is wrong', async () => {
    await page.fill('#api-key', 'ak_' + 'x'.repeat(40));
    const res = await analyze(page);
    expect(res.status()).toBe(401);
    const body = await res.json();
    await page.waitForSelector('#text-error:not([hidden])');
    const shown = await page.textContent('#text-error');
    expect(shown).toContain(body.error.message);
    expect(shown).toContain(STRINGS.en.errNeedKey);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('api-key');
    expect(await page.isHidden('#result')).toBe(true);
    expect(await contrastFailures(page)).toEqual([]);
  }, BROWSER_TIMEOUT_MS);

  it('shows when the quota resets on a 429', async () => {
    await page.fill('#api-key', server.spentKey);
    const res = await analyze(page);
    expect(res.status()).toBe(429);
    const body = await res.json();
    const reset = new Date(Number(res.headers()['x-ratelimit-reset']) * 1000);
    await page.waitForSelector('#text-error:not([hidden])');
    const shown = await page.textContent('#text-error');
    expect(shown).toContain(body.error.message);
    expect(shown).toContain(String(reset.getUTCFullYear()));
    expect(shown).toContain(reset.toLocaleString('en', { month: 'long', timeZone: 'UTC' }));
  }, BROWSER_TIMEOUT_MS);

  it('keeps the API key in sessionStorage only', async () => {
    const stored = await page.evaluate(() => ({ session: sessionStorage.getItem('playground.apiKey'), local: JSON.stringify(localStorage) }));
    expect(stored.session).toStartWith('ak_');
    expect(stored.local).not.toContain('ak_');
  }, BROWSER_TIMEOUT_MS);

  it('works with the keyboard alone', async () => {
    await page.click('#tab-text');
    await page.fill('#api-key', server.key);
    await page.focus('#api-key');
    // Key -> sensitivity -> Text tab -> textarea, in document order.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-text');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-files');
    expect(await page.isVisible('#panel-files')).toBe(true);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('text');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('analyze');
    const [res] = await Promise.all([page.waitForResponse(isDetect), page.keyboard.press('Enter')]);
    expect(res.status()).toBe(200);
    await page.waitForSelector('#result:not([hidden])');
  }, BROWSER_TIMEOUT_MS);
});
