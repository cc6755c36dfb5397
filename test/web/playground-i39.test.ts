/**
 * What a new user still tripped on in the playground (issue 39, items 9 and 6), checked in Debian's
 * chromium against the real server at 1280 and 390 px, in English and Spanish: a profile is made
 * once per click and its charge shows in the words-left line; a changed setting is said to be one;
 * the AI share follows one rule in the text view and the Files table; an AI verdict over a text with
 * a human passage says why it is not "Mixed"; the "Why" bullets quote different words; the
 * sensitivity shows its whole label and the profile table fits a phone; a too-small profile names
 * its language in words. Screenshots in test/artifacts/.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { aiSharePercent } from '../../src/contract/share.ts';
import { STRINGS, tr, type UiLang } from '../../src/web/strings.ts';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { AI_EN } from '../engine/texts.ts';
import { humanNotes } from '../../scripts/lib/calibration-texts.ts';
import { contrastFailures } from './contrast.ts';
import {
  analyzeText,
  ARTIFACTS,
  asFiles,
  BROWSER_TIMEOUT_MS,
  COMBOS,
  HAVE_CHROMIUM,
  isCreate,
  isDetect,
  openPlayground,
  type PlaygroundSession,
  show,
  type TestServer,
} from './harness.ts';
import { AI_PARAGRAPH, AI_WITH_HUMAN_LINE, ESSAY, MIXED, SHORT_FORMAL } from './texts.ts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** Texts in a profile: the fewest a language needs (MIN_PROFILE_TEXTS), so a free month pays for it. */
const PROFILE_TEXTS = 50;

/** A whole percentage as the page writes it in `lang` ("18%", "18 %"). */
const pct = (share: number, lang: UiLang) => new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 }).format(share);

/** Puts `key` in the key field the way a person does (typing, then leaving the field). */
async function useKey(page: Page, key: string): Promise<void> {
  await page.fill('#api-key', key);
  await page.dispatchEvent('#api-key', 'change');
}

describe.skipIf(!HAVE_CHROMIUM)('playground: what a new user still tripped on (issue 39)', () => {
  let session: PlaygroundSession;
  let server: TestServer;
  let page: Page;

  beforeAll(async () => {
    session = await openPlayground();
    ({ server, page } = session);
  }, BROWSER_TIMEOUT_MS);

  afterAll(async () => {
    await session?.close();
  }, BROWSER_TIMEOUT_MS);

  it(
    'makes one profile per click: the form empties, a second click sends nothing, and the words-left line shows the charge',
    async () => {
      let creates = 0;
      page.on('request', (req) => {
        if (req.url().endsWith('/v1/calibrations') && req.method() === 'POST') creates++;
      });
      for (const combo of COMBOS) {
        await show(page, combo);
        // A fresh month for each: a profile of 50 notes costs about 3,000 of a free key's 10,000 words.
        await useKey(page, await server.newKey(`i39-${combo.tag}`));
        await page.click('#tab-calibration');
        // The new key's whole month, not the line of the key before it.
        await page.waitForFunction(() => document.getElementById('usage-line')?.dataset.remaining === '10000');
        const before = 10_000;
        const name = `Staff ${combo.tag}`;
        await page.fill('#calibration-name', name);
        await page.setInputFiles('#calibration-files', asFiles(humanNotes(PROFILE_TEXTS), combo.tag));
        const [res] = await Promise.all([page.waitForResponse(isCreate), page.click('#create-profile')]);
        expect(res.status()).toBe(201);
        const charged = Number(res.headers()['x-ratelimit-remaining']);
        expect(charged).toBeLessThan(before);
        await page.waitForSelector('.profile');
        // 50 texts set no conservative bar (99 needed): the status points to the card's warning (item 3).
        expect((await res.json()).warnings).toHaveLength(1);
        expect(await page.textContent('#calibration-status')).toBe(
          `${tr(combo.lang, 'profileCreated', { name })} ${tr(combo.lang, 'profileWarningsBelow', { n: 1 })}`,
        );
        expect(await page.locator('.profile-warning[data-code="mode_not_covered"][data-mode="conservative"]').count()).toBe(1);
        // The form is empty again: name, files and their summary.
        expect(await page.inputValue('#calibration-name')).toBe('');
        expect(await page.evaluate(() => (document.getElementById('calibration-files') as HTMLInputElement).files?.length ?? 0)).toBe(0);
        expect(await page.textContent('#calibration-summary')).toBe('');
        // The words-left line follows the charge (it said `before` until the page was reloaded).
        await page.waitForFunction((n) => document.getElementById('usage-line')?.dataset.remaining === String(n), charged);
        expect(await page.textContent('#usage-line')).toContain(charged.toLocaleString(combo.lang));
        // A second click makes nothing and charges nothing: it asks for a name.
        const sent = creates;
        await page.click('#create-profile');
        await page.waitForSelector('#calibration-error:not([hidden])');
        expect(await page.getAttribute('#calibration-error', 'data-code')).toBe('no_name');
        expect(await page.textContent('#calibration-error')).toBe(STRINGS[combo.lang].errCalibrationNoName);
        expect(creates).toBe(sent);
        expect(await page.locator('.profile').count()).toBe(1);
        expect(await page.getAttribute('#usage-line', 'data-remaining')).toBe(String(charged));
        await page.screenshot({ path: join(ARTIFACTS, `playground-i39-created-${combo.tag}.png`), fullPage: true });
      }
    },
    BROWSER_TIMEOUT_MS * 4,
  );

  it(
    'shows the sensitivity’s whole label and a profile table that fits its card',
    async () => {
      for (const combo of COMBOS) {
        await show(page, combo);
        await page.click('#tab-calibration');
        await page.waitForSelector('.profile tr[data-mode]');
        // The select is at least as wide as its widest option (at 1280 px it was 318 px for a 340 px label).
        for (const mode of ['conservative', 'balanced', 'aggressive']) {
          await page.selectOption('#sensitivity', mode);
          const [shown, needed] = await page.evaluate(() => {
            const select = document.getElementById('sensitivity') as HTMLSelectElement;
            const shown = select.getBoundingClientRect().width;
            select.style.width = 'max-content';
            const needed = select.getBoundingClientRect().width;
            select.style.width = '';
            return [shown, needed];
          });
          expect(shown).toBeGreaterThanOrEqual(needed);
        }
        await page.selectOption('#sensitivity', 'conservative');
        // Nothing in a profile card is wider than the card (at 390 px in Spanish: a 356 px table in 337 px).
        const overflow = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('.profile, .profile .table-wrap')]
            .filter((box) => box.scrollWidth > box.clientWidth)
            .map((box) => `${box.className}: ${box.scrollWidth} > ${box.clientWidth}`),
        );
        expect(overflow).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(combo.view.width);
        // Each value keeps its column's name where the table becomes one block per mode.
        const labels = await page
          .locator('.profile tr[data-mode="balanced"] td')
          .evaluateAll((tds) => tds.map((td) => td.dataset.label ?? ''));
        expect([STRINGS[combo.lang].colThreshold, STRINGS[combo.lang].colThresholdLogit]).toContain(labels[0]);
        expect(labels.slice(1)).toEqual([STRINGS[combo.lang].colOwnFlagged, STRINGS[combo.lang].colUpperBound]);
        expect(await contrastFailures(page)).toEqual([]);
        await page.screenshot({ path: join(ARTIFACTS, `playground-i39-profile-${combo.tag}.png`), fullPage: true });
      }
    },
    BROWSER_TIMEOUT_MS * 2,
  );

  it(
    'says the settings changed when the sensitivity or the profile did, and the text when the text did',
    async () => {
      const profileId = await page.locator('.profile').first().getAttribute('data-id');
      for (const combo of COMBOS) {
        await show(page, combo);
        await page.selectOption('#calibration', '');
        await page.selectOption('#sensitivity', 'conservative');
        await analyzeText(page, ESSAY);
        const note = async () => ((await page.isVisible('#stale-note')) ? await page.textContent('#stale-note') : null);
        expect(await note()).toBeNull();
        await page.selectOption('#sensitivity', 'aggressive');
        expect(await note()).toBe(STRINGS[combo.lang].staleSettingsNote);
        expect(await page.getAttribute('#stale-note', 'data-reason')).toBe('settings');
        await page.selectOption('#sensitivity', 'conservative');
        expect(await note()).toBeNull();
        await page.selectOption('#calibration', profileId!);
        expect(await note()).toBe(STRINGS[combo.lang].staleSettingsNote);
        await page.fill('#text', `${ESSAY} One more sentence.`);
        expect(await note()).toBe(STRINGS[combo.lang].staleTextSettingsNote);
        await page.selectOption('#calibration', '');
        expect(await note()).toBe(STRINGS[combo.lang].staleNote);
        expect(await page.getAttribute('#stale-note', 'data-reason')).toBe('text');
        await page.fill('#text', ESSAY);
        expect(await note()).toBeNull();
        if (combo.lang === 'es') expect(STRINGS.es.staleSettingsNote).not.toContain('texto ha cambiado');
        expect(STRINGS[combo.lang].staleSettingsNote).not.toBe(STRINGS[combo.lang].staleNote);
      }
    },
    BROWSER_TIMEOUT_MS * 2,
  );

  it(
    'shows the AI share by one rule in the text view and the Files table: "—" beside a verdict that is not on the AI side',
    async () => {
      for (const combo of COMBOS) {
        await show(page, combo);
        const inconclusive = (await analyzeText(page, SHORT_FORMAL)).body;
        expect(inconclusive.verdictKey).toBe('inconclusive');
        expect(inconclusive.aiShare).toBeGreaterThan(0);
        expect(await page.textContent('#ai-share')).toBe('—');
        const ai = (await analyzeText(page, AI_PARAGRAPH)).body;
        expect(ai.verdictKey).toBe('ai');
        const aiShare = pct(aiSharePercent(ai.aiShare) / 100, combo.lang);
        expect(await page.textContent('#ai-share')).toBe(aiShare);
        // The same two texts as files: the same answers, the same cells.
        await page.click('#tab-files');
        await page.setInputFiles('#files', [
          { name: 'formal.txt', mimeType: 'text/plain', buffer: Buffer.from(SHORT_FORMAL) },
          { name: 'ai.txt', mimeType: 'text/plain', buffer: Buffer.from(AI_PARAGRAPH) },
        ]);
        await Promise.all([page.waitForResponse(isDetect), page.click('#analyze-files')]);
        await page.waitForFunction(() => document.querySelectorAll('#batch-rows tr.row-done').length === 2);
        const share = (i: number) =>
          page.textContent(`#batch-rows tr[data-index="${i}"] td[data-label="${STRINGS[combo.lang].colAiShare}"]`);
        expect(await share(0)).toBe('—'); // it said "100%" beside "Not enough evidence"
        expect(await share(1)).toBe(aiShare);
        // The cell still carries the API's number, as the CSV does, for spreadsheets.
        expect(await page.getAttribute('#batch-rows tr[data-index="0"] td[data-share]', 'data-share')).toBe(String(inconclusive.aiShare));
        await page.screenshot({ path: join(ARTIFACTS, `playground-i39-share-${combo.tag}.png`), fullPage: true });
      }
    },
    BROWSER_TIMEOUT_MS * 2,
  );

  it(
    'says why an AI verdict over a text with a human passage is not “Mixed”, from the answer’s own fields',
    async () => {
      for (const combo of COMBOS) {
        await show(page, combo);
        const body = (await analyzeText(page, AI_WITH_HUMAN_LINE)).body;
        expect(body.verdictKey).toBe('ai');
        expect(body.segments.map((s: { label: string }) => s.label)).toContain('human');
        const human = pct((100 - aiSharePercent(body.aiShare)) / 100, combo.lang);
        expect(await page.isVisible('#mixed-note')).toBe(true);
        expect(await page.textContent('#mixed-note')).toBe(
          tr(combo.lang, 'notMixed', { human, min: pct(0.1, combo.lang), max: pct(0.9, combo.lang), words: 30 }),
        );
        // The note and the AI share add up to every word.
        expect(aiSharePercent(body.aiShare) + Number.parseInt(human, 10)).toBe(100);
        expect(await contrastFailures(page)).toEqual([]);
        await page.screenshot({ path: join(ARTIFACTS, `playground-i39-not-mixed-${combo.tag}.png`), fullPage: true });
        // Nothing to explain: an AI text that is one AI passage, and a text that is `mixed`.
        for (const [text, key] of [
          [ESSAY, 'ai'],
          [MIXED, 'mixed'],
        ] as const) {
          expect((await analyzeText(page, text)).body.verdictKey).toBe(key);
          expect(await page.isHidden('#mixed-note')).toBe(true);
        }
      }
    },
    BROWSER_TIMEOUT_MS * 2,
  );

  it(
    'quotes different words in each “Why” bullet',
    async () => {
      for (const combo of COMBOS) {
        await show(page, combo);
        // Its word-pattern bullet and the style note quoted the same first sentence.
        const body = (await analyzeText(page, AI_EN)).body;
        const bullets = body.bullets as { start: number; end: number }[];
        expect(bullets.length).toBeGreaterThanOrEqual(2);
        bullets.forEach((b, i) => {
          for (const q of bullets.slice(0, i)) expect(b.start < q.end && q.start < b.end).toBe(false);
        });
        const quotes = await page.locator('#bullets li.bullet q').allTextContents();
        expect(quotes).toHaveLength(bullets.length);
        expect(new Set(quotes).size).toBe(quotes.length);
      }
    },
    BROWSER_TIMEOUT_MS * 2,
  );

  it(
    'names the language of a too-small profile in words, in the page’s language',
    async () => {
      for (const combo of COMBOS) {
        await show(page, combo);
        await page.click('#tab-calibration');
        await page.fill('#calibration-name', 'Few');
        await page.setInputFiles('#calibration-files', asFiles(humanNotes(3), `few-${combo.tag}`));
        const [res] = await Promise.all([page.waitForResponse(isCreate), page.click('#create-profile')]);
        expect(res.status()).toBe(422);
        await page.waitForSelector('#calibration-error[data-code="calibration_too_small"]');
        const message = (await page.textContent('#calibration-error'))!;
        expect(message).toStartWith(
          combo.lang === 'en' ? 'Too few usable texts in English: 3 ' : 'Muy pocos textos utilizables en inglés: 3 ',
        );
        expect(message).not.toContain('"en"');
      }
    },
    BROWSER_TIMEOUT_MS * 2,
  );
});
