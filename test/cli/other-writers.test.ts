/**
 * Other writers on the command line (issue 43 items 3 and 5): the `calibrate` summary's line per mode
 * ("other writers: flagged X of N reference texts; most: <label> Y (model alone Z)", "(bar raised by
 * the guard)" where so) from a profile's figures, and `detect --calibration` answers carrying the
 * decided mode's figures in `measuredError`, as the API does. The figures are made up
 * (test/fixtures/other-writers.ts) on a real profile file; the guard's own are checked end to end in
 * test/http/other-writers-real.test.ts.
 */
import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { humanNote, humanNotes } from '../../scripts/lib/calibration-texts';
import { runCalibrateCli } from '../../src/cli/calibrate';
import { runDetectCli } from '../../src/cli/detect';
import { makeProfile } from '../../src/detector';
import { otherWritersSentence, profileOtherWritersLines } from '../../src/detector/explain/other-writers';
import { modelVersion } from '../../src/model-version';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { madeUpOtherWriters, withOtherWriters } from '../fixtures/other-writers';
import { detector } from '../http/helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const dir = mkdtempSync(join(tmpdir(), 'other-writers-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const profile = withOtherWriters(makeProfile(detector(), humanNotes(150), { name: 'Diaries', modelVersion: modelVersion() }));

describe('calibrate: other writers', () => {
  it('prints one line per mode with the figures, the population flagged most beside the model alone, and a raised bar', () => {
    expect(profileOtherWritersLines(profile, 'en')).toEqual([
      'en: bars guarded on 2,480 reference texts of 9 populations of the kinds the profile covers',
      'en conservative: other writers: flagged 0.7% of 2,480 reference texts; most: second-language learner essays 1.3% (model alone 0.8%)',
      'en balanced: other writers: flagged 2.9% of 2,480 reference texts; most: second-language learner essays 5.4% (model alone 4.2%) (bar raised by the guard)',
      'en aggressive: other writers: flagged 8% of 2,480 reference texts; most: second-language learner essays 13.8% (model alone 11.3%) (bar raised by the guard)',
    ]);
    // Without a population flagged most, the line says what it has.
    const none = madeUpOtherWriters('calibration');
    none.balanced = { ...none.balanced, most: null, raised: false };
    expect(profileOtherWritersLines(withOtherWriters(profile, none), 'en')[2]).toBe(
      'en balanced: other writers: flagged 2.9% of 2,480 reference texts',
    );
    // With no reference text of the covered kinds, it says so rather than "0% of 0".
    none.balanced = { ...none.balanced, texts: 0, flagged: 0, rate: 0, populations: 0 };
    expect(profileOtherWritersLines(withOtherWriters(profile, none), 'en')[2]).toBe(
      'en balanced: other writers: no reference population of the kinds the profile covers',
    );
    expect(otherWritersSentence(none.balanced, 'en')).toBe(
      'The model has no reference texts of the kinds your profile covers: nothing says how this mode treats writers unlike yours.',
    );
    expect(otherWritersSentence(none.balanced, 'es')).toStartWith(
      'El modelo no tiene textos de referencia de los tipos que cubre su perfil',
    );
  });

  it('has no line for a profile made without the reference set', async () => {
    const chunks: string[] = [];
    const stdin = (async function* () {
      yield new TextEncoder().encode(
        humanNotes(60)
          .map((text) => JSON.stringify({ text }))
          .join('\n'),
      );
    })();
    const code = await runCalibrateCli(['--out', join(dir, 'plain.json')], {
      detector: { ...detector(), facts: { ...detector().facts, reference: null } },
      stdin,
      out: (c) => void chunks.push(c),
      err: () => {},
    });
    expect(code).toBe(0);
    const summary = JSON.parse(chunks.join(''));
    expect(summary.otherWriters).toEqual([]);
    expect(summary.languages.en.modes.balanced.otherWriters).toBeUndefined();
  });
});

describe('detect --calibration: other writers', () => {
  it('answers with the decided mode’s figures and their sentence', async () => {
    const path = join(dir, 'diaries.json');
    writeFileSync(path, JSON.stringify(profile));
    const text = humanNote(900);
    const chunks: string[] = [];
    const stdin = (async function* () {
      yield new TextEncoder().encode(`${JSON.stringify({ text })}\n`);
    })();
    const code = await runDetectCli(['--jsonl', '--calibration', path, '--sensitivity', 'balanced'], {
      detector: detector(),
      stdin,
      out: (c) => void chunks.push(c),
      err: () => {},
    });
    expect(code).toBe(0);
    const line = JSON.parse(chunks.join('').trim().split('\n')[0]);
    expect(line.calibration.applied).toBe(true);
    expect(line.measuredError.otherWriters).toEqual(madeUpOtherWriters('calibration').balanced);
    expect(line.measuredError.text).toEndWith(
      'Writers unlike yours (reference texts of the kinds your profile covers): this mode flagged 2.9% of 2,480; most: second-language learner essays, 5.4% (the model alone 4.2%).',
    );
  });
});
