/**
 * Other writers end to end (issue 43 items 3 and 5), with the guard's real figures: the playground
 * makes an adapted profile on the real server (the detector's shipped reference writers guard its
 * bars) from students' essays of the shared dev split (skipped without it), and the figures each
 * surface shows agree: the API's profile (POST and GET), the `calibrate`
 * command's summary made from the same texts, the card's line per mode (1280 and 390 px, English and
 * Spanish), and `measuredError.otherWriters` of a detection decided with the profile at each mode.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { dataDir, hasData, loadRows, sourceOfFile, splitFiles } from '../../scripts/lib/data.ts';
import { runCalibrateCli } from '../../src/cli/calibrate.ts';
import { SENSITIVITIES } from '../../src/contract/index.ts';
import { otherWritersLine } from '../../src/detector/explain/other-writers.ts';
import type { CalibrationView } from '../../src/modules/calibrations/model.ts';
import { otherWritersText } from '../../src/web/other-writers-view.ts';
import { SUITE_TIMEOUT_MS } from '../timeout';
import {
  asFiles,
  BROWSER_TIMEOUT_MS,
  COMBOS,
  HAVE_CHROMIUM,
  isCreate,
  isDetect,
  openPlayground,
  type PlaygroundSession,
  show,
} from './harness.ts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const DATA = hasData();
if (!DATA) console.warn(`test/web/playground-other-writers-real.test.ts: skipped, the shared data is absent (${dataDir()}; set DATA_DIR)`);
/**
 * Students' persuasive essays of the dev split (OUTFOX): a kind the reference writers cover (the short
 * generated notes of the other tests are a length no reference population has 20 texts of). The first
 * 150 human essays are the profile's, the next is the text detected, and 80 AI essays are its examples.
 */
const rows = DATA ? loadRows(splitFiles('dev').filter((f) => sourceOfFile(f) === 'outfox_essays')) : [];
const humanRows = rows.filter((r) => r.label === 'human');
const HUMAN = humanRows.slice(0, 150).map((r) => r.text);
const AI = rows
  .filter((r) => r.label === 'ai')
  .slice(0, 80)
  .map((r) => r.text);
const DETECTED = humanRows[150]?.text ?? '';
const NAME = 'Essays, guarded';

describe.skipIf(!HAVE_CHROMIUM || !DATA)('other writers, real figures, on every surface (issue 43)', () => {
  let session: PlaygroundSession;
  let page: Page;
  let made: CalibrationView;

  beforeAll(async () => {
    session = await openPlayground();
    page = session.page;
    await page.check('#lang-en');
    await page.fill('#api-key', await session.server.newKey('other-writers-real', 'premium'));
    await page.dispatchEvent('#api-key', 'change');
    await page.click('#tab-calibration');
    await page.fill('#calibration-name', NAME);
    await page.setInputFiles('#calibration-files', asFiles(HUMAN, 'note'));
    await page.setInputFiles('#calibration-ai-files', asFiles(AI, 'ai'));
    const [res] = await Promise.all([page.waitForResponse(isCreate), page.click('#create-profile')]);
    expect(res.status()).toBe(201);
    made = await res.json();
    await page.waitForSelector(`.profile[data-id="${made.id}"] .other-writers`);
  }, BROWSER_TIMEOUT_MS * 4);

  afterAll(async () => {
    await session?.close();
  }, BROWSER_TIMEOUT_MS);

  it(
    'states the guard’s figures per mode, and the API, the CLI, the card and the answers agree on them',
    async () => {
      const en = made.languages.en!;
      // The server's detector carries the shipped reference set: the profile is guarded as it is made.
      expect(en.guard?.made).toBe('with_profile');
      expect(en.guard!.populations).toBeGreaterThan(0);
      for (const mode of SENSITIVITIES) {
        const o = en.modes[mode].otherWriters!;
        expect(o.texts).toBeGreaterThan(0);
        expect(o.flagged).toBe(Math.round(o.rate * o.texts));
        expect(o.populations).toBe(en.guard!.populations);
        expect(o.most).not.toBeNull();
      }
      // GET answers the same figures.
      const key = await page.inputValue('#api-key');
      const got = (await (
        await page.request.get(`${session.server.url}/v1/calibrations/${made.id}`, { headers: { 'x-api-key': key } })
      ).json()) as CalibrationView;
      expect(got.languages.en!.guard).toEqual(en.guard);
      for (const mode of SENSITIVITIES) expect(got.languages.en!.modes[mode].otherWriters).toEqual(en.modes[mode].otherWriters);

      // The CLI, from the same texts, states the same figures, in the same words the API's numbers give.
      const chunks: string[] = [];
      const stdin = (async function* () {
        const lines = [...HUMAN.map((text) => ({ text })), ...AI.map((text) => ({ text, label: 'ai' }))];
        yield new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join('\n'));
      })();
      const out = mkdtempSync(join(tmpdir(), 'other-writers-real-'));
      const code = await runCalibrateCli(['--out', join(out, 'profile.json'), '--name', NAME], {
        detector: session.server.detector,
        stdin,
        out: (c) => void chunks.push(c),
        err: () => {},
      });
      rmSync(out, { recursive: true, force: true });
      expect(code).toBe(0);
      const summary = JSON.parse(chunks.join(''));
      expect(summary.languages.en.guard).toEqual(en.guard);
      for (const mode of SENSITIVITIES) {
        expect(summary.languages.en.modes[mode].otherWriters).toEqual(en.modes[mode].otherWriters);
        expect(summary.otherWriters).toContain(otherWritersLine(en.modes[mode].otherWriters!, 'en', mode, 'en'));
      }

      // The card quotes the API's figures, per mode, in both interface languages and at both widths.
      const box = page.locator(`.profile[data-id="${made.id}"] .profile-lang[data-lang="en"] .other-writers`);
      for (const combo of COMBOS) {
        await show(page, combo);
        for (const mode of SENSITIVITIES) {
          const o = en.modes[mode].otherWriters!;
          expect(await box.locator(`li[data-mode="${mode}"]`).textContent()).toBe(otherWritersText(mode, o, combo.lang));
          expect(await box.locator(`li[data-mode="${mode}"]`).getAttribute('data-population')).toBe(o.most!.id);
        }
      }
      await page.check('#lang-en');
      await page.setViewportSize({ width: 1280, height: 900 });

      // A detection decided with the profile carries the decided mode's figures (what the page shows under it).
      await page.locator(`.profile[data-id="${made.id}"] button.use`).click();
      await page.click('#tab-text');
      for (const mode of SENSITIVITIES) {
        await page.selectOption('#sensitivity', mode);
        await page.fill('#text', DETECTED);
        const [res] = await Promise.all([page.waitForResponse(isDetect), page.click('#analyze')]);
        const body = await res.json();
        expect(body.calibration.applied).toBe(true);
        expect(body.measuredError.otherWriters).toEqual(en.modes[mode].otherWriters);
        await page.waitForFunction((t) => document.querySelector('#measured-error')?.textContent === t, body.measuredError.text);
        expect(body.measuredError.text).toContain(o_label(en.modes[mode].otherWriters!.most!.label));
      }
    },
    BROWSER_TIMEOUT_MS * 6,
  );
});

/** The population's label as the answer's sentence quotes it (a name, in English). */
const o_label = (label: string) => `most: ${label}, `;
