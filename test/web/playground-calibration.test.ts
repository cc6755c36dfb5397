/**
 * The Calibration tab (issue 34 item 7) in Debian's chromium against the real server: a too-small
 * set is refused in words that say how many texts are needed; 100 human files make a profile whose
 * numbers (texts, per mode the threshold, its own texts flagged and the 95% bound) are on the page;
 * chosen, it is sent by the Text and Files tabs, and the answer's `calibration` (applied, or why not)
 * and the profile's measured error are shown, with the gauge coloured by the verdict; Spanish labels;
 * screenshots at 1280 and 390 px in test/artifacts/.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SENSITIVITIES } from '../../src/contract/index.ts';
import { publicProfile } from '../../src/detector/decide/profile.ts';
import { makeProfile } from '../../src/detector/index.ts';
import { STRINGS, tr } from '../../src/web/strings.ts';
import { gaugeBand } from '../../src/web/result.ts';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { humanNote, humanNotes } from '../../scripts/lib/calibration-texts.ts';
import { contrastFailures } from './contrast.ts';
import {
  analyzeText,
  ARTIFACTS,
  asFiles,
  BROWSER_TIMEOUT_MS,
  HAVE_CHROMIUM,
  isCreate,
  isDetect,
  openPlayground,
  type PlaygroundSession,
  type TestServer,
} from './harness.ts';
import { ESSAY } from './texts.ts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** Texts in the profile: 100 (n + 1 >= 100 lets even the 1% mode keep its promise with none flagged). */
const PROFILE_TEXTS = 100;
const PROFILE_NAME = 'Staff notes 2019';

/** "1.3%": a share as the page writes it in English (one decimal at most). */
const rate = (share: number) => new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 }).format(share);

type Profile = {
  id: string;
  name: string;
  languages: {
    en: {
      texts: number;
      docTypes: string[];
      words: { min: number; max: number | null } | null;
      modes: Record<
        string,
        { thresholdLogit: number | null; flagged: number; texts: number; rate: number; upperBound: number; mixed?: number }
      >;
    };
  };
};

const analyze = analyzeText;

describe.skipIf(!HAVE_CHROMIUM)('playground Calibration tab in chromium (issue 34)', () => {
  let session: PlaygroundSession;
  let server: TestServer;
  let page: Page;
  let profile: Profile;

  beforeAll(async () => {
    session = await openPlayground();
    ({ server, page } = session);
    await page.check('#lang-en');
    await page.fill('#api-key', server.key);
    await page.click('#tab-calibration'); // the key field's change event loads the (empty) list
  }, BROWSER_TIMEOUT_MS);

  afterAll(async () => {
    await session?.close();
  }, BROWSER_TIMEOUT_MS);

  it(
    'refuses a set with too few texts and says how many a language needs',
    async () => {
      await page.waitForFunction((empty) => document.getElementById('profiles')?.textContent === empty, STRINGS.en.profilesEmpty);
      expect(await page.textContent('#calibration-needs')).toBe('At least 50 texts of 20+ words in each language you give.');
      await page.fill('#calibration-name', 'Too small');
      await page.setInputFiles('#calibration-files', asFiles(humanNotes(12), 'few'));
      const [res] = await Promise.all([page.waitForResponse(isCreate), page.click('#create-profile')]);
      expect(res.status()).toBe(422);
      await page.waitForSelector('#calibration-error:not([hidden])');
      expect(await page.getAttribute('#calibration-error', 'data-code')).toBe('calibration_too_small');
      const message = await page.textContent('#calibration-error');
      // How many it had and how many it needs, in words.
      expect(message).toContain('12');
      expect(message).toContain('50');
      expect(await page.textContent('#profiles')).toBe(STRINGS.en.profilesEmpty);
      expect(await page.locator('#calibration option').count()).toBe(1);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'makes a profile from human files and shows its texts, thresholds, flagged shares and bounds per mode',
    async () => {
      await page.fill('#calibration-name', PROFILE_NAME);
      // A file the picker does not take is named and left out, as on the Files tab.
      await page.setInputFiles('#calibration-files', [
        ...asFiles(humanNotes(PROFILE_TEXTS), 'note'),
        { name: 'notes.rtf', mimeType: 'text/rtf', buffer: Buffer.from('x') },
      ]);
      expect(await page.textContent('#calibration-refused')).toContain('notes.rtf');
      expect(await page.textContent('#calibration-summary')).toBe(`${PROFILE_TEXTS} file(s) chosen`);
      const [res] = await Promise.all([page.waitForResponse(isCreate), page.click('#create-profile')]);
      expect(res.status()).toBe(201);
      profile = await res.json();
      expect(profile.languages.en.texts).toBe(PROFILE_TEXTS);
      await page.waitForSelector(`.profile[data-id="${profile.id}"]`);
      expect(await page.isHidden('#calibration-error')).toBe(true);
      expect(await page.textContent('#calibration-status')).toBe(`Profile “${PROFILE_NAME}” created.`);
      const card = page.locator(`.profile[data-id="${profile.id}"]`);
      expect(await card.locator('.profile-name').textContent()).toBe(PROFILE_NAME);
      const en = profile.languages.en;
      const words = en.words!;
      expect(await card.locator('.profile-lang[data-lang="en"] .profile-lang-line').textContent()).toBe(
        words.max === null ? `English: 100 texts, ${words.min}+ words` : `English: 100 texts, ${words.min}–${words.max} words`,
      );
      // Made without AI examples: calibration-only, as asked, said without a warning (issue 38).
      const adaptation = card.locator('.profile-lang[data-lang="en"] .profile-adaptation');
      expect(await adaptation.getAttribute('data-state')).toBe('calibration-only');
      expect(await adaptation.textContent()).toBe('Calibration only: no AI examples of this language were given.');
      expect(await card.locator('.profile-warning').count()).toBe(0);
      for (const mode of SENSITIVITIES) {
        const m = en.modes[mode];
        const row = card.locator(`tr[data-mode="${mode}"]`);
        expect(await row.locator('th').textContent()).toBe(STRINGS.en[`mode_${mode}`]);
        if (m.thresholdLogit === null) {
          expect(await row.locator('td').textContent()).toBe(STRINGS.en.modeDefault);
          continue;
        }
        // Texts read as mixed at the mode are said under the count (issue 45 item 7).
        const mixed = m.mixed ? tr('en', 'ownMixed', { m: m.mixed }) : '';
        expect(await row.locator('td.flagged').textContent()).toBe(`${m.flagged} of ${m.texts} (${rate(m.rate)})${mixed}`);
        expect(await row.locator('td.bound').textContent()).toBe(rate(m.upperBound));
        // Never "0%" without its n and bound: a mode that flagged none still states both.
        expect(m.texts).toBe(PROFILE_TEXTS);
        expect(m.upperBound).toBeGreaterThan(m.rate);
      }
      // 100 texts keep even the 1% promise: the conservative mode has a threshold, flagging none of them.
      expect(en.modes.conservative.thresholdLogit).not.toBeNull();
      expect(en.modes.conservative.flagged).toBe(0);
      expect(await page.locator('#calibration option').allTextContents()).toEqual([STRINGS.en.calibrationNone, PROFILE_NAME]);
      // Choosing it here is choosing it for the detections.
      await card.locator('button.use').click();
      expect(await page.inputValue('#calibration')).toBe(profile.id);
      expect(await card.getAttribute('class')).toContain('chosen');
      expect(await card.locator('button.use').textContent()).toBe(STRINGS.en.inUse);
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.screenshot({ path: join(ARTIFACTS, 'playground-calibration.png'), fullPage: true });
      expect(await contrastFailures(page)).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: join(ARTIFACTS, 'playground-calibration-390.png'), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'sends the chosen profile with a text, decides with its threshold and says so, with the measured error of its own texts',
    async () => {
      // The same profile made in-process from the same texts: the page's numbers are the detector's.
      const local = makeProfile(server.detector, humanNotes(PROFILE_TEXTS), { name: PROFILE_NAME });
      expect(publicProfile(local).languages.en!.modes).toEqual(profile.languages.en.modes);
      // A new note that this population's aggressive threshold calls AI and the model's own does not.
      const i = Array.from({ length: 400 }, (_, k) => PROFILE_TEXTS + k).find((k) => {
        const plain = server.detector.analyze(humanNote(k), { sensitivity: 'aggressive' });
        const calibrated = server.detector.analyze(humanNote(k), { sensitivity: 'aggressive', profile: local });
        return calibrated.calibration?.applied && calibrated.ai && !plain.ai;
      });
      expect(i).toBeDefined();
      const text = humanNote(i!);
      const expected = server.detector.analyze(text, { sensitivity: 'aggressive', profile: local });
      await page.selectOption('#sensitivity', 'aggressive');
      const { res, body } = await analyze(page, text);
      expect(res.request().postDataJSON()).toEqual({ text, sensitivity: 'aggressive', calibration: profile.id });
      expect(body.calibration).toEqual({ id: profile.id, name: PROFILE_NAME, applied: true, reason: null, adapted: false });
      expect(body.verdictKey).toBe(expected.verdictKey);
      expect(await page.isVisible('#calibration-line')).toBe(true);
      expect(await page.textContent('#calibration-line')).toBe(
        `Profile “${PROFILE_NAME}” applied: this mode’s threshold comes from its texts.`,
      );
      // The measured error is the profile's own, in the server's words.
      expect(body.measuredError.source).toBe('calibration');
      expect(body.measuredError.humanTexts).toBe(PROFILE_TEXTS);
      expect(await page.textContent('#measured-error')).toBe(body.measuredError.text);
      expect(body.measuredError.text).toContain(`${PROFILE_TEXTS} calibration texts`);
      // Gauge, verdict and bullets say one thing: an AI call at a middling score, in the AI verdict's colour.
      expect(await page.textContent('#verdict')).toBe(body.verdict);
      expect(await page.getAttribute('#gauge', 'data-band')).toBe(gaugeBand(body.score, body.verdictKey));
      expect(['mid', 'high']).toContain(gaugeBand(body.score, body.verdictKey));
      expect(await page.textContent('#gauge-label')).toBe(STRINGS.en.gaugeLabel);
      expect(
        await page.locator('#bullets li.bullet').evaluateAll((items) => items.map((li) => (li as HTMLElement).dataset.leaning)),
      ).toEqual(body.bullets.map((b: { leaning: string }) => b.leaning));
      expect(body.bullets[0].leaning).toBe('ai');
      await page.screenshot({ path: join(ARTIFACTS, 'playground-calibration-applied.png'), fullPage: true });
      expect(await contrastFailures(page)).toEqual([]);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'says in words why the profile was not applied to a text unlike its own',
    async () => {
      const { body } = await analyze(page, ESSAY);
      expect(body.calibration.applied).toBe(false);
      const reason = body.calibration.reason as string;
      expect(['doc_type_not_covered', 'length_not_covered']).toContain(reason);
      const why = STRINGS.en[`reason_${reason}` as 'reason_doc_type_not_covered'].replace('{docType}', body.docTypeLabel);
      expect(await page.textContent('#calibration-line')).toBe(`Profile “${PROFILE_NAME}” not applied: ${why}`);
      expect(await page.getAttribute('#calibration-line', 'data-reason')).toBe(reason);
      expect(await page.getAttribute('#gauge', 'data-band')).toBe(gaugeBand(body.score, body.verdictKey));
      // Choosing another profile (none) dims the result: it no longer answers the settings on screen.
      await page.selectOption('#calibration', '');
      expect(await page.isVisible('#stale-note')).toBe(true);
      await page.selectOption('#calibration', profile.id);
      expect(await page.isVisible('#stale-note')).toBe(false);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'sends the profile with the Files tab and shows each file’s calibration line',
    async () => {
      await page.click('#tab-files');
      await page.setInputFiles('#files', [
        { name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.from(humanNote(900)) },
        { name: 'essay.txt', mimeType: 'text/plain', buffer: Buffer.from(ESSAY) },
      ]);
      // (Chromium does not expose a multipart body to the test: the lines' `calibration`, present only
      // when the batch named a profile, show that the form carried it.)
      const [res] = await Promise.all([page.waitForResponse(isDetect), page.click('#analyze-files')]);
      expect(res.status()).toBe(200);
      await page.waitForFunction(() => document.querySelectorAll('#batch-rows tr.row-done').length === 2);
      const notes = await page.locator('#batch-rows p.cal-note').allTextContents();
      expect(notes).toHaveLength(2);
      expect(notes[0]).toBe(`Profile “${PROFILE_NAME}”: applied`);
      expect(notes[1]).toStartWith(`Profile “${PROFILE_NAME}”: not applied (other `);
      expect(await page.getAttribute('#batch-rows tr[data-index="1"] p.cal-note', 'data-applied')).toBe('false');
      // Under the reasons, the file's measured error (the profile's own where it applied).
      await page.locator('#batch-rows tr[data-index="0"] details.reasons summary').click();
      expect(await page.textContent('#batch-rows tr[data-index="0"] details.reasons .measured-error')).toContain('calibration texts');
      expect(await page.textContent('#batch-rows tr[data-index="0"] details.reasons .calibration-line')).toBe(
        `Profile “${PROFILE_NAME}” applied: this mode’s threshold comes from its texts.`,
      );
      expect(await contrastFailures(page)).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: join(ARTIFACTS, 'playground-calibration-files-390.png'), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'speaks Spanish: tab, table, the calibration line and the too-small error',
    async () => {
      await page.check('#lang-es');
      expect(await page.textContent('#tab-calibration')).toBe('Calibración');
      expect(await page.textContent('label[for="calibration"]')).toBe('Perfil de calibración');
      await page.click('#tab-calibration');
      const card = page.locator(`.profile[data-id="${profile.id}"]`);
      expect(await card.locator('thead th').allTextContents()).toEqual([
        'Modo',
        'thresholdScore' in profile.languages.en.modes.balanced ? STRINGS.es.colThreshold : STRINGS.es.colThresholdLogit,
        'Sus propios textos marcados',
        'Como máximo (cota del 95 %)',
      ]);
      expect(await card.locator('tr[data-mode="balanced"] th').textContent()).toBe('Equilibrado');
      expect(await card.locator('.profile-lang-line').first().textContent()).toStartWith('Inglés: 100 textos');
      expect(await card.locator('button.use').textContent()).toBe('En uso');
      expect(await page.textContent('#calibration-status')).toBe(`Perfil «${PROFILE_NAME}» creado.`);
      // The text result re-rendered in Spanish: its calibration line is the page's own sentence.
      expect(await page.textContent('#calibration-line')).toStartWith(`Perfil «${PROFILE_NAME}» no aplicado: `);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: join(ARTIFACTS, 'playground-calibration-es-390.png'), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.fill('#calibration-name', 'Pocos');
      await page.setInputFiles('#calibration-files', asFiles(humanNotes(3), 'pocos'));
      const [res] = await Promise.all([page.waitForResponse(isCreate), page.click('#create-profile')]);
      expect(res.status()).toBe(422);
      await page.waitForSelector('#calibration-error:not([hidden])');
      const message = (await page.textContent('#calibration-error'))!;
      expect(message).toContain('50');
      expect(message).not.toContain('Too few');
      await page.check('#lang-en');
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    'deletes a profile: it leaves the list and the choice',
    async () => {
      page.once('dialog', (dialog) => void dialog.accept());
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'DELETE'),
        page.locator(`.profile[data-id="${profile.id}"] button.remove`).click(),
      ]);
      expect(res.status()).toBe(204);
      await page.waitForFunction((empty) => document.getElementById('profiles')?.textContent === empty, STRINGS.en.profilesEmpty);
      expect(await page.inputValue('#calibration')).toBe('');
      // The next detection names no profile, and its answer carries none.
      const { res: detect, body } = await analyze(page, humanNote(901));
      expect(detect.request().postDataJSON().calibration).toBeUndefined();
      expect(body.calibration ?? null).toBeNull();
      expect(await page.isHidden('#calibration-line')).toBe(true);
    },
    BROWSER_TIMEOUT_MS,
  );
});
