/**
 * Other writers on the API (issue 43 items 3 and 5): a profile whose modes state what their bars flag
 * of reference writers unlike its texts shows the figures in GET /v1/calibrations/{id} and the list,
 * and a detection decided with it carries the decided mode's figures in `measuredError.otherWriters`
 * with a second sentence on them in both label languages, in single mode and on every batch result
 * line; the answers validate against the documented schemas. The figures are made up
 * (test/fixtures/other-writers.ts) on a real profile from real texts, stored as `calibrate --key-id`
 * stores one; test/http/other-writers-real.test.ts checks the guard's own figures end to end.
 */
import { beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { aiNotes, humanNote, humanNotes } from '../../scripts/lib/calibration-texts';
import { SENSITIVITIES } from '../../src/contract';
import { makeProfile } from '../../src/detector';
import { CalibrationListSchema, CalibrationSchema } from '../../src/modules/calibrations';
import { storeProfile } from '../../src/modules/calibrations/service';
import { ResultLineSchema } from '../../src/modules/batch/model';
import { DetectResponseSchema } from '../../src/modules/detect/model';
import { compileSchema } from '../../src/http/schema';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { madeUpOtherWriters, withOtherWriters } from '../fixtures/other-writers';
import { call, detector, makeApp } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

type Json = Record<string, any>;
const figuresBy = madeUpOtherWriters('calibration');

describe('other writers on the API', () => {
  const { app, store, newKey } = makeApp();
  let key: string;
  let id: string;
  /** A human note the profile covers (the same kind as its texts, never one of them). */
  const text = humanNote(900);

  beforeAll(async () => {
    const made = await newKey('enterprise');
    key = made.key;
    const profile = withOtherWriters(makeProfile(detector(), humanNotes(150), { name: 'Diaries' }));
    id = (await storeProfile(store.calibrations, made.row.id, profile)).id;
  });

  it('shows each mode’s figures in the profile, read one by one and in the list, as documented', async () => {
    const one = (await (await call(app, `/v1/calibrations/${id}`, { key })).json()) as Json;
    const list = (await (await call(app, '/v1/calibrations', { key })).json()) as Json;
    expect(compileSchema(CalibrationSchema).Check(one)).toBe(true);
    expect(compileSchema(CalibrationListSchema).Check(list)).toBe(true);
    for (const mode of SENSITIVITIES) {
      expect(one.languages.en.modes[mode].otherWriters).toEqual(figuresBy[mode]);
      expect(list.calibrations[0].languages.en.modes[mode].otherWriters).toEqual(figuresBy[mode]);
    }
    expect(one.languages.en.modes.balanced.otherWriters.raised).toBe(true);
    expect(one.languages.en.modes.conservative.otherWriters.raised).toBe(false);
  });

  it('carries the decided mode’s figures in measuredError, with a sentence on them in English and Spanish', async () => {
    const check = compileSchema(DetectResponseSchema);
    for (const mode of SENSITIVITIES) {
      const en = (await (
        await call(app, '/v1/detect?lang=en', { key, json: { text, sensitivity: mode, calibration: id } })
      ).json()) as Json;
      expect(check.Check(en)).toBe(true);
      expect(en.calibration).toMatchObject({ applied: true, adapted: false });
      expect(en.measuredError.source).toBe('calibration');
      expect(en.measuredError.otherWriters).toEqual(figuresBy[mode]);
      const es = (await (
        await call(app, '/v1/detect?lang=es', { key, json: { text, sensitivity: mode, calibration: id } })
      ).json()) as Json;
      expect(es.measuredError.otherWriters).toEqual(figuresBy[mode]);
      const share = (lang: string, x: number) => new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }).format(x);
      const f = figuresBy[mode];
      // First for whom the bound holds, then the other writers.
      expect(en.measuredError.text).toBe(
        `In your 150 calibration texts, this mode flagged ${share('en', en.measuredError.humanFlaggedRate)}; for texts like them, at most ${share('en', en.measuredError.upperBound)}. ` +
          `Writers unlike yours (reference texts of the kinds your profile covers): this mode flagged ${share('en', f.rate)} of 2,480; most: second-language learner essays, ${share('en', f.most!.rate)} (the model alone ${share('en', f.most!.modelRate)}).`,
      );
      expect(es.measuredError.text).toEndWith(
        `Personas que escriben distinto de las suyas (textos de referencia de los tipos que cubre su perfil): este modo marcó el ${share('es', f.rate)} de 2480; el grupo más marcado: «second-language learner essays», el ${share('es', f.most!.rate)} (el modelo solo, el ${share('es', f.most!.modelRate)}).`,
      );
      expect(es.measuredError.text).toStartWith('En sus 150 textos de calibración');
    }
    // Without the profile, or where it does not apply, no figures of other writers: the model's own tests answer.
    const plain = (await (await call(app, '/v1/detect', { key, json: { text } })).json()) as Json;
    expect(plain.measuredError.source).toBe('model');
    expect(plain.measuredError.otherWriters).toBeUndefined();
    expect(plain.measuredError.text).not.toContain('Writers unlike yours');
  });

  it('puts the same figures on every batch result line naming the profile', async () => {
    const form = new FormData();
    for (const [i, t] of [text, humanNote(901)].entries()) form.append('files[]', new File([t], `note-${i}.txt`));
    form.append('calibration', id);
    form.append('sensitivity', 'aggressive');
    const answer = await call(app, '/v1/detect', { key, body: form });
    expect(answer.status).toBe(200);
    const results = (await answer.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Json)
      .filter((line) => line.type === 'result');
    expect(results).toHaveLength(2);
    const check = compileSchema(ResultLineSchema);
    for (const line of results) {
      expect(check.Check(line)).toBe(true);
      expect(line.calibration.applied).toBe(true);
      expect(line.measuredError.otherWriters).toEqual(figuresBy.aggressive);
      expect(line.measuredError.text).toContain('Writers unlike yours');
    }
  });

  it('quotes an adapted language’s figures only where the adapted bar decided', async () => {
    const made = await newKey('enterprise');
    const adapted = withOtherWriters(makeProfile(detector(), humanNotes(150), { name: 'Adapted diaries' }, aiNotes(80)));
    const figures = adapted.languages.en!.modes.balanced.otherWriters!;
    expect(figures.bar).toBe('adapted');
    const stored = await storeProfile(store.calibrations, made.row.id, adapted);
    const body = (await (
      await call(app, '/v1/detect', { key: made.key, json: { text, sensitivity: 'balanced', calibration: stored.id } })
    ).json()) as Json;
    expect(body.calibration).toMatchObject({ applied: true, adapted: true });
    expect(body.measuredError.otherWriters).toEqual(figures);
    // Figures of another bar than the one that decided are not quoted beside the verdict (a profile
    // read back refuses them: this is the detector's own rule, given the profile as it is).
    const calibrationBar = { ...figures, bar: 'calibration' as const };
    const l = adapted.languages.en!;
    const mismatched = {
      ...adapted,
      languages: { en: { ...l, modes: { ...l.modes, balanced: { ...l.modes.balanced, otherWriters: calibrationBar } } } },
    };
    const other = detector().analyze(text, { sensitivity: 'balanced', profile: mismatched });
    expect(other.calibration?.adapted).toBe(true);
    expect(other.measuredError.otherWriters).toBeUndefined();
  });
});
