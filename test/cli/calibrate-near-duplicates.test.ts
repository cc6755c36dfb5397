/**
 * Issue 44 items 1 and 2 and issue 45 item 6 through the real `calibrate` command: near-copies (a word
 * dropped per copy, re-spaced, a counter appended, a signature added) count once among the human texts
 * and among the AI examples, in the profile's texts, bars and bounds; a text given both as human and as
 * AI is used as human whatever the order of the lines, and the summary warns how many.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseProfile } from '../../src/detector/decide/profile';
import { binomialUpperBound } from '../../src/detector/score/bounds';
import { runCommand } from '../fixtures/server-process';
import { dropWordCopies, NEWS, longAiTexts, longHumanTexts, variant } from '../fixtures/near-copies';
import { SUITE_TIMEOUT_MS } from '../timeout';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '..', '..');
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'calibrate-near-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `calibrate --out` on JSON lines: human texts, then AI examples (labelled), or lines given as they are. */
function calibrate(out: string, lines: { text: string; label?: 'ai' }[]) {
  const stdin = lines.map((l) => JSON.stringify(l)).join('\n');
  const r = runCommand(['bun', 'run', 'src/main.ts', 'calibrate', '--out', out], ROOT, { HOME: process.env.HOME ?? '' }, stdin);
  return { ...r, summary: r.code === 0 ? JSON.parse(r.out) : null };
}
const human = (texts: string[]) => texts.map((text) => ({ text }));
const ai = (texts: string[]) => texts.map((text) => ({ text, label: 'ai' as const }));

describe('calibrate with near-copies (issue 44 items 1 and 2)', () => {
  it('counts 100 human texts sent 4 times, each copy missing a different word, as 100: every stated figure is of 100', () => {
    const out = join(dir, 'drafts.json');
    const r = calibrate(out, [...human(longHumanTexts(100).flatMap((t) => dropWordCopies(t, 4))), ...ai(longAiTexts(300))]);
    expect(r.err).toBe('');
    expect(r.summary.inputs).toMatchObject({ read: 400, usable: 100, duplicates: 300 });
    expect(r.summary.aiInputs).toMatchObject({ read: 300, usable: 300, duplicates: 0 });
    const en = parseProfile(JSON.parse(readFileSync(out, 'utf8'))).languages.en!;
    expect(en.texts).toBe(100);
    expect(en.samples).toHaveLength(100);
    for (const m of [en.modes, ...(en.adaptation ? [en.adaptation.modes] : [])].flatMap((x) => Object.values(x))) {
      expect(m.texts).toBe(100);
      expect(m.upperBound).toBeCloseTo(binomialUpperBound(m.flagged, 100), 6);
    }
    expect(en.modes.conservative.flagged).toBe(0);
  });

  it('counts one news text sent 1,000 times with "(Copy N.)" appended as one text: too few, nothing written', () => {
    const out = join(dir, 'story.json');
    const r = calibrate(out, human(Array.from({ length: 1000 }, (_, i) => `${NEWS} (Copy ${i + 1}.)`)));
    expect(r.code).toBe(1);
    expect(r.err).toContain('language "en" has 1 usable texts');
    expect(r.err).toContain('(1000 texts read, 1 usable');
    expect(existsSync(out)).toBe(false);
  });

  it('counts 20 AI examples sent 5 times each (re-spaced, a counter, a word dropped, signed) as 20: too few to adapt', () => {
    const examples = longAiTexts(20);
    const r = calibrate(join(dir, 'few.json'), [
      ...human(longHumanTexts(60)),
      ...ai(examples.flatMap((t, i) => [t, ...[1, 2, 3, 4].map((k) => variant(t, i * 4 + k))])),
    ]);
    expect(r.code).toBe(0);
    expect(r.summary.aiInputs).toMatchObject({ read: 100, usable: 20, duplicates: 80 });
    expect(r.summary.languages.en.notAdapted).toMatchObject({ reason: 'too_few_ai_texts', aiTexts: 20 });
    expect(r.summary.warnings).toContainEqual({ code: 'not_adapted', language: 'en', reason: 'too_few_ai_texts', aiTexts: 20, needed: 50 });
  });
});

describe('calibrate with a text given both as human and as AI (issue 45 item 6)', () => {
  it('uses it as human whatever the order of the lines, leaves it out of the AI examples, and warns how many', () => {
    const texts = longHumanTexts(60);
    const examples = longAiTexts(55);
    // Two given again as AI after their human line (one the same, one a near-copy), one labelled AI before its human line.
    const r = calibrate(join(dir, 'mislabelled.json'), [
      ...ai([variant(texts[9], 3)]),
      ...human(texts),
      ...ai([...examples, texts[7], variant(texts[8], 1)]),
    ]);
    expect(r.code).toBe(0);
    expect(r.summary.inputs).toMatchObject({ read: 60, usable: 60, duplicates: 0 });
    expect(r.summary.aiInputs).toMatchObject({ read: 58, usable: 55, duplicates: 3 });
    expect(r.summary.languages.en.texts).toBe(60);
    expect((r.summary.languages.en.adaptation ?? r.summary.languages.en.notAdapted).aiTexts).toBe(55);
    expect(r.summary.warnings).toContainEqual({ code: 'labelling_conflict', count: 3 });
  });
});
