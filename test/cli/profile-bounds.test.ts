/**
 * Profile files with finite but absurd numbers (issue 44 item 5), through the real command line: an
 * adapted profile made by `calibrate --out`, edited (weights, bias or logit weight of 1e308, a bar moved
 * to -1e300 or merely below its texts while the file keeps its old counts, more weighted n-grams than a
 * fit keeps), is refused by `detect --calibration` with exit 2 and what is wrong; never applied.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aiNotes, humanNotes } from '../../scripts/lib/calibration-texts';
import { MAX_FIT_GRAMS } from '../../src/detector/decide/profile';
import { ABSURD_EDITS } from '../fixtures/absurd-profiles';
import { createDetector } from '../../src/detector';
import { MAX_ADAPTATION_GRAMS } from '../../src/detector/learn/adaptation';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { runCli } from '../fixtures/cli-run';

setDefaultTimeout(SUITE_TIMEOUT_MS);

let dir = '';
let profile = '';

const run = runCli;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'profile-bounds-'));
  profile = join(dir, 'adapted.json');
  const lines = [
    ...humanNotes(150).map((text) => JSON.stringify({ text })),
    ...aiNotes(80).map((text) => JSON.stringify({ text, label: 'ai' })),
  ];
  const made = await run('calibrate', ['--out', profile, '--name', 'Diaries'], lines.join('\n'));
  expect([made.code, made.stderr]).toEqual([0, '']);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('detect --calibration with a profile file of absurd numbers (issue 44 item 5)', () => {
  it('keeps the n-gram bound of a fit and of a file the same number', () => {
    expect(MAX_FIT_GRAMS).toBe(MAX_ADAPTATION_GRAMS);
  });

  it('applies the profile as made: every score a number', async () => {
    const d = await run('detect', ['--jsonl', '--calibration', profile], JSON.stringify({ text: aiNotes(200)[190] }));
    expect(d.code).toBe(0);
    expect(typeof JSON.parse(d.stdout).score).toBe('number');
  });

  for (const [name, edit, reason] of ABSURD_EDITS) {
    it(`refuses ${name} with exit 2 and what is wrong`, async () => {
      const edited = JSON.parse(readFileSync(profile, 'utf8'));
      edit(edited);
      const path = join(dir, 'edited.json');
      writeFileSync(path, JSON.stringify(edited));
      const d = await run('detect', ['--jsonl', '--calibration', path], JSON.stringify({ text: aiNotes(200)[191] }));
      expect([d.code, d.stdout]).toEqual([2, '']);
      expect(d.stderr).toContain('not a calibration profile');
      expect(d.stderr).toContain(reason);
    });
  }

  it('never answers a score that is not a number, even for a profile that was not checked (decide/index.ts)', async () => {
    const unchecked = JSON.parse(readFileSync(profile, 'utf8'));
    ABSURD_EDITS[0][1](unchecked); // weights of ±1e308: the adapted logit is ±Infinity or NaN
    const detector = await createDetector();
    const texts = aiNotes(200).slice(180, 190);
    const outcomes = texts.map((text) => {
      try {
        const a = detector.analyze(text, { sensitivity: 'balanced', profile: unchecked, modelVersion: unchecked.modelVersion });
        return a.calibration?.adapted ? 'adapted' : Number.isFinite(a.score) ? 'model' : 'not a number';
      } catch (error) {
        return (error as { code?: string }).code ?? 'thrown';
      }
    });
    expect(outcomes).not.toContain('not a number');
    expect(outcomes).not.toContain('adapted');
    expect(outcomes).toContain('calibration_invalid');
  });
});
