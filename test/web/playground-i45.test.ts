/**
 * Issue 45 item 2, in Debian's chromium against the real server at 1280 and 390 px, in English and
 * Spanish: a text the model alone reads as mixed (an AI passage and a human one), which a profile adapted
 * to the operator's AI examples reads as AI as a whole. The whole-text adapted reading decides: the page
 * shows an AI verdict beside the adapted score (never "Mixed" beside a 100), and one line saying the
 * passages are the model's own reading. Screenshots in test/artifacts/.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { aiNotes, humanNotes } from '../../scripts/lib/calibration-texts.ts';
import { gaugeBand } from '../../src/web/result.ts';
import { tr } from '../../src/web/strings.ts';
import { SUITE_TIMEOUT_MS } from '../timeout';
import {
  analyzeText,
  ARTIFACTS,
  BROWSER_TIMEOUT_MS,
  COMBOS,
  HAVE_CHROMIUM,
  openPlayground,
  type PlaygroundSession,
  show,
} from './harness.ts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** Two notes a text (80-149 words): the length of the mixed texts below, so the profile covers them. */
const pairs = (xs: string[]) => xs.slice(0, xs.length >> 1).map((x, i) => `${x} ${xs[(xs.length >> 1) + i]}`);

describe.skipIf(!HAVE_CHROMIUM)('playground: an adapted score over the model’s mixed passages (issue 45 item 2)', () => {
  let session: PlaygroundSession;
  let page: Page;
  let profileId: string;
  /** Two AI notes the model alone calls mixed at balanced and the adapted profile calls AI. */
  let text: string;

  beforeAll(async () => {
    session = await openPlayground();
    page = session.page;
    const { server } = session;
    const key = await server.newKey('i45', 'premium');
    const res = await fetch(`${server.url}/v1/calibrations`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Diary pairs', texts: pairs(humanNotes(300)), aiTexts: pairs(aiNotes(200)) }),
    });
    expect(res.status).toBe(201);
    const profile = await res.json();
    expect(profile.languages.en.adaptation).not.toBeNull();
    profileId = profile.id;
    const candidates = pairs(aiNotes(400).slice(200));
    const found = candidates.find((t) => {
      const plain = server.detector.analyze(t, { sensitivity: 'balanced' });
      return plain.verdictKey === 'mixed';
    });
    expect(found).toBeDefined();
    text = found!;
    await page.fill('#api-key', key);
    await page.dispatchEvent('#api-key', 'change');
    await page.click('#tab-calibration');
    await page.locator(`.profile[data-id="${profileId}"] button.use`).click();
    await page.selectOption('#sensitivity', 'balanced');
  }, BROWSER_TIMEOUT_MS * 3);

  afterAll(async () => {
    await session?.close();
  }, BROWSER_TIMEOUT_MS);

  it(
    'shows the AI verdict of the whole-text adapted reading, and says the passages are the model’s',
    async () => {
      for (const combo of COMBOS) {
        await show(page, combo);
        const { body } = await analyzeText(page, text);
        expect(body.calibration.adapted).toBe(true);
        // The whole-text reading decides: an AI verdict at the adapted score, never "mixed".
        expect(['ai', 'likely_ai']).toContain(body.verdictKey);
        expect(body.score).toBe(body.calibration.adaptedScore);
        expect(body.bullets.some((b: { id: string }) => b.id === 'mixed_authorship')).toBe(false);
        // The passages are the model's reading, and the answer says so in one line, with the score.
        expect(body.segments.length).toBeGreaterThan(1);
        expect(body.segments.some((s: { label: string }) => s.label === 'human')).toBe(true);
        expect(body.calibration.passages).toBe('model');
        expect(body.calibration.note).toContain(`${body.score}/100`);
        expect(await page.textContent('#verdict')).toBe(body.verdict);
        expect(await page.getAttribute('#verdict', 'data-verdict')).toBe(body.verdictKey);
        expect(await page.textContent('#gauge-score')).toBe(String(body.score));
        expect(await page.getAttribute('#gauge', 'data-band')).toBe(gaugeBand(body.score, body.verdictKey));
        expect(await page.isVisible('#mixed-note')).toBe(true);
        expect(await page.textContent('#mixed-note')).toBe(body.calibration.note);
        expect(await page.textContent('#ai-share')).not.toContain(tr(combo.lang, 'verdictHint_mixed'));
        await page.screenshot({ path: join(ARTIFACTS, `playground-i45-adapted-mixed-${combo.tag}.png`), fullPage: true });
      }
      await page.check('#lang-en');
      await page.setViewportSize({ width: 1280, height: 900 });
    },
    BROWSER_TIMEOUT_MS * 4,
  );
});
