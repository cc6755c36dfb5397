/**
 * What a new user still tripped on in the playground (issue 32, items 1-6), checked in Debian's
 * chromium against the real server, with screenshots at 1280 and 390 px in test/artifacts/: one
 * language per page (or a note that says which), dimensions that mean what they say, one rounding
 * of the AI share, a gauge coloured by the verdict, cut examples that end in "…", every colour of
 * the text in the legend with neighbouring shades told apart, a Files table that fits a phone, and
 * no measured-error line beside "Not enough evidence".
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { aiSharePercent } from '../../src/contract/share.ts';
import { HUMAN_SIGNAL_DIMENSION } from '../../src/detector/explain/findings.ts';
import { STRINGS, tr } from '../../src/web/strings.ts';
import { contrastFailures } from './contrast.ts';
import {
  analyzeText,
  ARTIFACTS,
  BROWSER_TIMEOUT_MS,
  HAVE_CHROMIUM,
  isDetect,
  openPlayground,
  type PlaygroundSession,
  type TestServer,
} from './harness.ts';
import { ESSAY, MIXED, NOTES_MD, SHORT_FORMAL } from './texts.ts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** The AI-passage violet (styles.css --seg-line): the mixed verdict's gauge colour. */
const SEG_VIOLET = 'rgb(91, 42, 134)';
/** Least luminance ratio between neighbouring sentence shades (styles.css: 1.28 by design; 1.11 between the first two before issue 32). */
const MIN_NEIGHBOUR_RATIO = 1.25;

async function analyze(page: Page, text: string): Promise<Record<string, any>> {
  return (await analyzeText(page, text)).body;
}

/** WCAG relative luminance of an `rgb(r, g, b)` string. */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/[\d.]+/g) ?? []).map(Number);
  const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
const ratio = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

describe.skipIf(!HAVE_CHROMIUM)('playground: one language, true dimensions, one rounding (issue 32)', () => {
  let session: PlaygroundSession;
  let server: TestServer;
  let page: Page;

  beforeAll(async () => {
    session = await openPlayground();
    ({ server, page } = session);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.check('#lang-en');
    await page.fill('#api-key', server.key);
  }, BROWSER_TIMEOUT_MS);

  afterAll(async () => {
    await session?.close();
  }, BROWSER_TIMEOUT_MS);

  it(
    'paints a mixed verdict in violet, writes one AI share, and ends a cut example with an ellipsis (item 3)',
    async () => {
      const body = await analyze(page, MIXED);
      expect(body.verdictKey).toBe('mixed');
      expect(body.score).toBeGreaterThanOrEqual(70); // the case of the issue: a high score beside "Mixed"
      expect(await page.getAttribute('#gauge', 'data-band')).toBe('mixed');
      expect(await page.evaluate(() => getComputedStyle(document.getElementById('gauge-arc')!).stroke)).toBe(SEG_VIOLET);
      expect(await page.textContent('#gauge-label')).toBe(STRINGS.en.gaugeMixed);
      // One rounding: the share on the page and the percentage in the mixed bullet are the same number.
      const share = aiSharePercent(body.aiShare);
      expect(await page.textContent('#ai-share')).toBe(`${share}%`);
      const mixed = page.locator('#bullets li[data-id="mixed_authorship"]');
      expect(await mixed.locator('.bullet-text').textContent()).toContain(`About ${share}%`);
      // The passage is longer than 200 characters: the example is cut at a word, and says so.
      const bullet = body.bullets.find((b: { id: string }) => b.id === 'mixed_authorship');
      const passage = body.segments.find((s: { label: string }) => s.label === 'ai');
      expect(passage.end - passage.start).toBeGreaterThan(200);
      const quoted = (await mixed.locator('q').textContent())!;
      expect(quoted).toBe(`${bullet.example}…`);
      expect(bullet.example).toBe(MIXED.slice(bullet.start, bullet.end));
      expect(bullet.example).not.toMatch(/[\s,;:]$/);
      expect(MIXED[bullet.end]).toMatch(/\s/); // a word boundary
      // An example that is a whole sentence gets no ellipsis.
      const whole = body.bullets.filter((b: { id: string; end: number }) => b.id === 'stock_phrases');
      for (const b of whole) {
        const q = await page.locator(`#bullets li[data-id="${b.id}"] q`).textContent();
        expect(q).toBe(b.example);
      }
      await page.screenshot({ path: join(ARTIFACTS, 'playground-i32-mixed-1280.png'), fullPage: true });
      expect(await contrastFailures(page)).toEqual([]);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'says "not used by this model", shows no reason from an unused dimension, and explains every detected one (item 2)',
    async () => {
      const body = await analyze(page, MIXED);
      const unused = body.dimensions.filter((d: { enabled: boolean }) => !d.enabled).map((d: { id: string }) => d.id);
      expect(unused.length).toBeGreaterThan(0);
      for (const id of unused) {
        const row = page.locator(`#dimensions li[data-dim="${id}"]`);
        expect(await row.locator('.dim-state').textContent()).toBe('Not used by this model');
      }
      expect(await page.textContent('#dims-unused')).toBe(`∅ Not used by this model: ${STRINGS.en.unavailableHelp}`);
      expect(await page.isVisible('#dims-unused')).toBe(true);
      const shown = await page.locator('#bullets li').evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.id!));
      for (const id of shown) expect(unused).not.toContain(HUMAN_SIGNAL_DIMENSION[id] ?? id);
      // Each detected dimension says what it rests on: its own reason, or why it flagged no sentence.
      const detected = body.dimensions.filter((d: { detected: boolean }) => d.detected);
      expect(detected.length).toBeGreaterThan(1);
      for (const dim of detected) {
        const note = await page.locator(`#dimensions li[data-dim="${dim.id}"] .dim-note`).textContent();
        const reason = body.bullets.find((b: { id: string }) => b.id === dim.id);
        const flagged = body.textAnnotations.filter((a: { dims: { id: string }[] }) => a.dims.some((d) => d.id === dim.id)).length;
        const expected = reason ? reason.text : flagged > 0 ? tr('en', 'dimFlaggedIn', { n: flagged }) : STRINGS.en.dimWholeText;
        expect([dim.id, note]).toEqual([dim.id, expected]);
      }
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'shows only legend colours in the text, and tells neighbouring shades apart (item 4)',
    async () => {
      await analyze(page, MIXED);
      const colours = await page.evaluate(() => {
        const fill = (el: Element) => getComputedStyle(el).backgroundColor;
        const opaque = (c: string) => c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent';
        const visible = (el: Element) => {
          const box = el.getBoundingClientRect();
          return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
        };
        const legend = [...document.querySelectorAll('#legend *')].map(fill).filter(opaque);
        const text = [...document.querySelectorAll('#annotated *')].filter(visible).map(fill).filter(opaque);
        // The shades' own rules: each ::highlight(heat-N) must paint its legend swatch's colour.
        const rules = [...document.styleSheets].flatMap((sheet) => [...sheet.cssRules]) as CSSStyleRule[];
        const highlight = [0, 1, 2, 3, 4].map((b) => {
          const rule = rules.find((r) => r.selectorText?.includes(`::highlight(heat-${b})`));
          const probe = document.createElement('span');
          probe.style.backgroundColor = rule?.style.backgroundColor ?? '';
          document.body.appendChild(probe);
          const colour = getComputedStyle(probe).backgroundColor;
          probe.remove();
          return colour;
        });
        const swatches = [0, 1, 2, 3, 4].map((b) => fill(document.querySelector(`#legend .swatch.heat-${b}`)!));
        return { legend, text, highlight, swatches, ink: getComputedStyle(document.getElementById('annotated')!).color };
      });
      for (const colour of colours.text) expect(colours.legend).toContain(colour);
      expect(colours.highlight).toEqual(colours.swatches);
      // Opaque shades: a blend (the olive of the issue) cannot appear.
      for (const swatch of colours.swatches) expect(swatch).toMatch(/^rgb\(/);
      for (let b = 0; b + 1 < colours.swatches.length; b++) {
        expect(ratio(colours.swatches[b], colours.swatches[b + 1])).toBeGreaterThanOrEqual(MIN_NEIGHBOUR_RATIO);
      }
      expect(ratio(colours.swatches[0], 'rgb(255, 255, 255)')).toBeGreaterThan(1.05);
      // The text stays readable on the darkest shade (WCAG AA).
      expect(ratio(colours.ink, colours.swatches[4])).toBeGreaterThanOrEqual(4.5);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'leaves the measured-error line out beside "Not enough evidence", and keeps it beside a verdict (item 6)',
    async () => {
      const none = await analyze(page, SHORT_FORMAL);
      expect(none.verdictKey).toBe('inconclusive');
      expect(await page.isHidden('#measured-error')).toBe(true);
      const called = await analyze(page, ESSAY);
      expect(called.verdictKey).not.toBe('inconclusive');
      expect(await page.isVisible('#measured-error')).toBe(true);
      expect(await page.textContent('#measured-error')).toBe(called.measuredError.text);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'marks an English result stale in Spanish and says so, then answers in Spanish when asked again (item 1)',
    async () => {
      await analyze(page, MIXED);
      await page.check('#lang-es');
      expect(await page.getAttribute('#result', 'class')).toContain('stale');
      expect(await page.isVisible('#stale-note')).toBe(true);
      expect(await page.textContent('#stale-note')).toBe(tr('es', 'staleLangNote', { language: 'inglés' }));
      // The server's words are marked as English for screen readers; the page's own words follow at once.
      expect(await page.getAttribute('#verdict', 'lang')).toBe('en');
      expect(await page.getAttribute('#bullets', 'lang')).toBe('en');
      expect(await page.textContent('#gauge-label')).toBe(STRINGS.es.gaugeMixed);
      expect(await page.textContent('h3[data-i18n="bulletsHeading"]')).toBe(STRINGS.es.bulletsHeading);
      const [res] = await Promise.all([page.waitForResponse(isDetect), page.click('#analyze')]);
      const body = await res.json();
      await page.waitForFunction(() => !document.getElementById('result')?.classList.contains('stale'));
      const spanish = server.detector.analyze(MIXED, { labelLang: 'es' });
      expect(body.verdict).toBe(spanish.verdict);
      expect(await page.textContent('#verdict')).toBe(spanish.verdict);
      expect(await page.isHidden('#stale-note')).toBe(true);
      expect(await page.getAttribute('#verdict', 'lang')).toBe('es');
      await page.check('#lang-en');
      expect(await page.textContent('#stale-note')).toBe(tr('en', 'staleLangNote', { language: 'Spanish' }));
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'fits the Files table in 390 px, one card per file, and re-labels it in Spanish with a note (items 5, 1)',
    async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.check('#lang-en');
      await analyze(page, MIXED);
      await page.screenshot({ path: join(ARTIFACTS, 'playground-i32-mixed-390.png'), fullPage: true });
      await page.locator('#annotated').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, 'playground-i32-text-390.png') });
      expect(await contrastFailures(page)).toEqual([]);
      await page.click('#tab-files');
      await page.setInputFiles('#files', [
        { name: 'ai-essay.txt', mimeType: 'text/plain', buffer: Buffer.from(ESSAY) },
        { name: 'field-notes.md', mimeType: 'text/markdown', buffer: Buffer.from(NOTES_MD) },
        { name: 'saturday-mixed.txt', mimeType: 'text/plain', buffer: Buffer.from(MIXED) },
      ]);
      await page.click('#analyze-files');
      await page.waitForFunction(() => document.getElementById('batch-status')?.textContent === 'Done', undefined, {
        timeout: BROWSER_TIMEOUT_MS - 10_000,
      });
      const layout = await page.evaluate(() => {
        const wrap = document.querySelector('.table-wrap')!;
        const table = document.getElementById('batch-table')!;
        const names = [...document.querySelectorAll('#batch-rows .file-name')].map((n) => {
          const box = n.getBoundingClientRect();
          return { lines: Math.round(box.height / parseFloat(getComputedStyle(n).lineHeight)), width: box.width };
        });
        const cells = [...document.querySelectorAll('#batch-rows td')].map((td) => {
          const box = td.getBoundingClientRect();
          return { label: (td as HTMLElement).dataset.label ?? '', right: box.right, left: box.left, text: td.textContent };
        });
        return { wrap: wrap.clientWidth, table: table.scrollWidth, viewport: document.documentElement.clientWidth, names, cells };
      });
      expect(layout.table).toBeLessThanOrEqual(layout.wrap);
      for (const name of layout.names) expect(name.lines).toBe(1);
      expect(layout.cells.length).toBe(18);
      for (const cell of layout.cells) {
        expect(cell.right).toBeLessThanOrEqual(layout.viewport);
        expect(cell.left).toBeGreaterThanOrEqual(0);
      }
      // Each value is named (the column headers are not shown on a card).
      expect(new Set(layout.cells.map((c) => c.label))).toEqual(
        new Set([
          STRINGS.en.colWords,
          STRINGS.en.colScore,
          STRINGS.en.colAiShare,
          STRINGS.en.colVerdict,
          STRINGS.en.colFlagged,
          STRINGS.en.colDocType,
        ]),
      );
      await page.screenshot({ path: join(ARTIFACTS, 'playground-i32-files-390.png'), fullPage: true });
      expect(await contrastFailures(page)).toEqual([]);
      // Switching language: "Done" and "Why" follow, and a note says the server's words are English.
      await page.check('#lang-es');
      expect(await page.textContent('#batch-status')).toBe(STRINGS.es.progressDone);
      expect(await page.locator('#batch-rows details.reasons summary').allTextContents()).toEqual([
        STRINGS.es.fileReasons,
        STRINGS.es.fileReasons,
        STRINGS.es.fileReasons,
      ]);
      expect(await page.isVisible('#batch-stale')).toBe(true);
      expect(await page.textContent('#batch-stale')).toBe(tr('es', 'filesStaleLangNote', { language: 'inglés' }));
      expect(await page.locator('#batch-rows td[data-label]').first().getAttribute('data-label')).toBe(STRINGS.es.colWords);
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.screenshot({ path: join(ARTIFACTS, 'playground-i32-files-1280.png'), fullPage: true });
      const wide = await page.evaluate(
        () => document.getElementById('batch-table')!.scrollWidth <= document.querySelector('.table-wrap')!.clientWidth,
      );
      expect(wide).toBe(true);
      await page.check('#lang-en');
      expect(await page.isHidden('#batch-stale')).toBe(true);
    },
    BROWSER_TIMEOUT_MS * 2,
  );
});
