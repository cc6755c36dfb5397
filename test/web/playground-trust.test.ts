/**
 * The playground says what the answer says (issue 28), checked in Debian's chromium against the real
 * server, with screenshots in test/artifacts/: each sentence shaded by its score with a legend, no red
 * gauge under a verdict that was not given, a dimmed result once the text is edited, reasons in the
 * Files tab that break between words, the plan named in Spanish, and a file picker that takes only
 * the formats it names.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { STRINGS } from '../../src/web/strings.ts';
import { AI_ES } from '../engine/texts.ts';
import { contrastFailures } from './contrast.ts';
import {
  analyzeText,
  ARTIFACTS,
  BROWSER_TIMEOUT_MS,
  HAVE_CHROMIUM,
  openPlayground,
  type PlaygroundSession,
  type TestServer,
} from './harness.ts';
import { ESSAY, MIXED } from './texts.ts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/**
 * The first two sentences (36 words) of a Spanish AI text: with the model of 2026-11-26 (retrained)
 * it scores 86, below the conservative threshold, so `inconclusive` with a high score: the case.
 */
// Two of its sentences, which the model of issue 35 scores 88 and does not call at conservative (inconclusive).
const SHORT_SPANISH_AI = AI_ES.split(/(?<=[.!?])\s+/)
  .slice(1, 3)
  .join(' ');
/** The first bullets that say why there is no verdict (as test/explain/invariants.test.ts). */
const NO_VERDICT_REASONS = ['short_text', 'language_limit', 'uncertain_score', 'ai_passage', 'obfuscation'];
/** The gauge's colour for a strong AI score (styles.css --high). */
const HIGH_RED = 'rgb(179, 38, 30)';

async function analyze(page: Page, text: string): Promise<{ status: number; body: Record<string, unknown> & { [k: string]: any } }> {
  const { res, body } = await analyzeText(page, text);
  return { status: res.status(), body };
}

describe.skipIf(!HAVE_CHROMIUM)('playground answers agree with themselves (issue 28)', () => {
  let session: PlaygroundSession;
  let server: TestServer;
  let page: Page;

  beforeAll(async () => {
    session = await openPlayground();
    ({ server, page } = session);
    await page.check('#lang-en');
    await page.fill('#api-key', server.key);
  }, BROWSER_TIMEOUT_MS);

  afterAll(async () => {
    await session?.close();
  }, BROWSER_TIMEOUT_MS);

  it(
    'shades every sentence by its score, in the band of its score, with a legend of the five bands',
    async () => {
      const { body } = await analyze(page, MIXED);
      const scores = body.sentenceScores as { start: number; end: number; score: number }[];
      expect(scores.length).toBeGreaterThan(5);
      const shaded = await page.evaluate(() =>
        [0, 1, 2, 3, 4].map((b) => [...(CSS.highlights.get(`heat-${b}`) ?? [])].map((r) => (r as Range).toString())),
      );
      const expected: string[][] = [[], [], [], [], []];
      for (const s of scores) expected[Math.min(4, Math.floor(s.score / 20))].push(MIXED.slice(s.start, s.end));
      expect(shaded).toEqual(expected);
      // The human paragraph's sentences sit in lower bands than the AI paragraph's.
      expect(Math.max(...scores.slice(0, 3).map((s) => s.score))).toBeLessThan(Math.min(...scores.slice(-3).map((s) => s.score)));
      expect(await page.locator('#legend .heat-legend .swatch').allTextContents()).toEqual(['0–19', '20–39', '40–59', '60–79', '80–100']);
      expect(await page.textContent('#legend .heat-legend')).toContain(STRINGS.en.legendHeat);
      await page.screenshot({ path: join(ARTIFACTS, 'playground-sentence-heat.png'), fullPage: true });
      expect(await contrastFailures(page)).toEqual([]);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'shows no red gauge under an inconclusive verdict, and leads with why there is none, in plain Spanish',
    async () => {
      await page.check('#lang-es');
      const { body } = await analyze(page, SHORT_SPANISH_AI);
      expect(body.verdictKey).toBe('inconclusive');
      expect(body.score).toBeGreaterThanOrEqual(80);
      expect(await page.getAttribute('#gauge', 'data-band')).toBe('none');
      const stroke = await page.evaluate(() => getComputedStyle(document.getElementById('gauge-arc')!).stroke);
      expect(stroke).not.toBe(HIGH_RED);
      expect(stroke).toBe('rgb(196, 199, 207)'); // --line: grey
      expect(await page.textContent('#gauge-label')).toBe(STRINGS.es.gaugeNoVerdict);
      expect(await page.getAttribute('#gauge', 'aria-valuetext')).toBe(`${body.score}/100, ${STRINGS.es.gaugeNoVerdict}`);
      const first = page.locator('#bullets li.bullet').first();
      expect(NO_VERDICT_REASONS).toContain((await first.getAttribute('data-id')) ?? '');
      expect(await first.getAttribute('data-leaning')).toBe('neutral');
      expect(await first.locator('.bullet-text').textContent()).toBe(`${STRINGS.es.leaning_neutral} ${body.bullets[0].text}`);
      expect(body.bullets[0].text).toContain(`(${body.score}/100)`);
      // No AI passage is drawn under it, so the legend does not list one either.
      expect(await page.locator('#annotated .seg-ai').count()).toBe(0);
      expect(await page.locator('#legend .seg-ai').count()).toBe(0);
      await page.screenshot({ path: join(ARTIFACTS, 'playground-inconclusive-es.png'), fullPage: true });
      // A called verdict keeps its colour: the README's 30-word example is red, and says nothing about being too short to call.
      await page.check('#lang-en');
      const called = await analyze(page, ESSAY.split('. ').slice(0, 2).join('. '));
      expect(called.body.verdictKey).toBe('ai');
      expect(await page.getAttribute('#gauge', 'data-band')).toBe('high');
      expect(await page.evaluate(() => getComputedStyle(document.getElementById('gauge-arc')!).stroke)).toBe(HIGH_RED);
      expect(await page.textContent('#gauge-label')).toBe(STRINGS.en.gaugeLabel);
      expect(await page.textContent('#bullets')).not.toContain('too short to call');
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'dims the result once the text or the sensitivity changes, and says so, until it is analyzed again',
    async () => {
      await analyze(page, ESSAY);
      expect(await page.isHidden('#stale-note')).toBe(true);
      const opacity = () => page.evaluate(() => getComputedStyle(document.querySelector('#result .summary')!).opacity);
      expect(await opacity()).toBe('1');
      await page.fill('#text', `${ESSAY} One more sentence.`);
      expect(await page.getAttribute('#result', 'class')).toContain('stale');
      expect(await opacity()).toBe('0.45');
      expect(await page.textContent('#stale-note')).toBe(STRINGS.en.staleNote);
      expect(await page.isVisible('#stale-note')).toBe(true);
      await page.screenshot({ path: join(ARTIFACTS, 'playground-stale.png'), fullPage: true });
      // Back to the analyzed text: the result answers it again.
      await page.fill('#text', ESSAY);
      expect(await opacity()).toBe('1');
      await page.selectOption('#sensitivity', 'aggressive');
      expect(await opacity()).toBe('0.45');
      await page.selectOption('#sensitivity', 'conservative');
      expect(await opacity()).toBe('1');
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'breaks the Files tab’s reasons between words, never inside one (a hyphen may end a line), even on a narrow screen',
    async () => {
      await page.setViewportSize({ width: 700, height: 900 });
      await page.click('#tab-files');
      await page.setInputFiles('#files', [
        { name: 'essay.txt', mimeType: 'text/plain', buffer: Buffer.from(ESSAY) },
        {
          name: 'a_very_long_file_name_without_any_spaces_in_it_at_all_human_note.txt',
          mimeType: 'text/plain',
          buffer: Buffer.from(MIXED),
        },
      ]);
      await page.click('#analyze-files');
      await page.waitForFunction(() => document.getElementById('batch-count')?.textContent === '2/2', undefined, {
        timeout: BROWSER_TIMEOUT_MS - 10_000,
      });
      for (const summary of await page.locator('#batch-rows details.reasons summary').all()) await summary.click();
      const broken = await page.evaluate(() => {
        const out: string[] = [];
        for (const li of document.querySelectorAll('#batch-rows details.reasons li')) {
          const text = li.firstChild as Text;
          for (const m of text.data.matchAll(/\p{L}{4,}/gu)) {
            const range = document.createRange();
            range.setStart(text, m.index!);
            range.setEnd(text, m.index! + m[0].length);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (lines.size > 1) out.push(m[0]);
          }
        }
        return out;
      });
      const style = await page.evaluate(() => {
        const li = getComputedStyle(document.querySelector('#batch-rows details.reasons li')!);
        const name = getComputedStyle(document.querySelector('#batch-rows th .file-name')!);
        return { reasonBreak: li.wordBreak, reasonWrap: li.overflowWrap, nameWrap: name.overflowWrap };
      });
      expect(style).toEqual({ reasonBreak: 'normal', reasonWrap: 'normal', nameWrap: 'anywhere' });
      expect(await page.locator('#batch-rows details.reasons li').count()).toBeGreaterThan(3);
      expect(broken).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, 'playground-files-narrow.png'), fullPage: true });
      await page.setViewportSize({ width: 1100, height: 900 });
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'names the plan in Spanish in the usage line',
    async () => {
      await page.check('#lang-es');
      await page.waitForFunction(() => document.getElementById('usage-line')?.textContent?.startsWith('Plan gratuito: '));
      expect(await page.textContent('#usage-line')).toMatch(/^Plan gratuito: quedan [\d.\s]+ de 10\.000 palabras este mes/);
      await page.check('#lang-en');
      await page.waitForFunction(() => document.getElementById('usage-line')?.textContent?.startsWith('Plan free: '));
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'offers and takes only TXT, MD, DOCX and PDF files, and names the ones it left out',
    async () => {
      await page.check('#lang-en');
      await page.click('#tab-files');
      expect(await page.getAttribute('#files', 'accept')).toBe('.txt,.md,.markdown,.docx,.pdf');
      await page.setInputFiles('#files', [
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('some words') },
        { name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
        { name: 'report.DOCX', mimeType: 'application/octet-stream', buffer: Buffer.from('PK') },
        { name: 'data.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b') },
      ]);
      expect(await page.locator('#file-list li').allTextContents()).toEqual(['notes.txt', 'report.DOCX']);
      expect(await page.textContent('#file-refused')).toBe('Not added (only TXT, MD, DOCX and PDF files): photo.png, data.csv');
      const dropped = await page.evaluateHandle(() => {
        const dt = new DataTransfer();
        dt.items.add(new File(['x'], 'slides.pptx'));
        dt.items.add(new File(['words'], 'essay.md'));
        return dt;
      });
      await page.dispatchEvent('#drop-zone', 'drop', { dataTransfer: dropped });
      expect(await page.locator('#file-list li').allTextContents()).toEqual(['essay.md']);
      expect(await page.textContent('#file-refused')).toBe('Not added (only TXT, MD, DOCX and PDF files): slides.pptx');
    },
    BROWSER_TIMEOUT_MS,
  );
});
