/**
 * Profiles guarded on reference writers (issue 43 items 3 and 4), through the real detector with
 * generated texts: the figures each mode states are what detections with the profile decide of the
 * reference texts, each population within its allowance; a profile made without a reference set is
 * as before; AI examples that look human are not adapted; the warnings about AI examples; format 3
 * read back and checked; an older profile guarded on load.
 */
import { beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { MODE_FPR, round6, SENSITIVITIES, type Sensitivity } from '../../src/contract';
import { type DetectorPipeline, detectorFor, makeProfile } from '../../src/detector';
import { adaptedLogit } from '../../src/detector/decide/adaptation';
import { MODE_GUARD_FLOOR, MODE_GUARD_MARGIN } from '../../src/detector/decide/guard';
import { guardLanguage, guardOnLoad } from '../../src/detector/decide/guard-load';
import {
  applyProfile,
  type CalibrationProfile,
  covers,
  type ModelFacts,
  PROFILE_FORMAT,
  parseProfile,
  profileWarnings,
  ruleTexts,
  withDefaults,
  KEPT_LOGIT_STEP,
} from '../../src/detector/decide/profile';
import type { ReferenceSet, ReferenceText } from '../../src/detector/decide/reference';
import { flags, ruleThreshold } from '../../src/detector/decide/threshold-rule';
import { sharedEngine } from './fixture';
import { mutated, refusal } from './profile-json';
import { aiNotes, humanNotes } from '../../scripts/lib/calibration-texts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const META = { name: 'diaries', modelVersion: 'v-test', createdAt: '2026-12-07T00:00:00.000Z' };
const human = humanNotes(400);
const ai = aiNotes(300);
/** Writers like the site's, a population of which 4 in 100 write in the AI examples' polished voice, and one that all do. */
const POPULATIONS = {
  casual: human.slice(290, 400),
  somePolishedVoice: [...human.slice(200, 296), ...ai.slice(200, 204)],
  polishedVoice: ai.slice(200, 300),
};

let detector: DetectorPipeline;
let facts: ModelFacts;
let reference: ReferenceSet;
/** Made without a reference set, and with one. */
let plain: CalibrationProfile;
let guarded: CalibrationProfile;

function referenceSet(populations: (keyof typeof POPULATIONS)[]): ReferenceSet {
  const texts: ReferenceText[] = [];
  populations.forEach((name, population) => {
    for (const t of POPULATIONS[name]) {
      const { lang: _, form: __, evidence, ...sample } = detector.profileSample(t)!;
      texts.push({ ...sample, evidence: evidence!, population });
    }
  });
  return {
    format: 1,
    modelVersion: 'v-test',
    languages: { en: { populations: populations.map((name) => ({ id: `en:${name}`, label: name })), texts } },
  };
}

const make = (reference: ReferenceSet | null, texts = human.slice(0, 150), examples = ai.slice(0, 80)) =>
  makeProfile({ ...detector, facts: { ...detector.facts, reference } }, texts, META, examples);

beforeAll(async () => {
  detector = detectorFor(await sharedEngine(), { modelVersion: 'v-test' });
  reference = referenceSet(['casual', 'somePolishedVoice']);
  facts = { ...detector.facts, reference };
  plain = make(null);
  guarded = make(reference);
});

/** What detections decide of a population's texts the profile covers at a mode: with the profile, and without. */
function detections(texts: readonly string[], profile: CalibrationProfile, mode: Sensitivity) {
  const en = profile.languages.en!;
  const covered = texts.filter((t) => {
    const s = detector.profileSample(t)!;
    return covers(en, s.docType, s.words);
  });
  const count = (p?: CalibrationProfile) => covered.filter((t) => detector.analyze(t, { sensitivity: mode, profile: p }).ai).length;
  return { texts: covered.length, flagged: count(profile), model: count() };
}

describe('a profile made with reference writers', () => {
  it('is the same as before without a reference set: no guard, no other writers', () => {
    expect(JSON.stringify(make(undefined as unknown as null))).toBe(JSON.stringify(plain));
    const en = plain.languages.en!;
    expect(plain.format).toBe(PROFILE_FORMAT);
    expect(en.guard).toBeUndefined();
    for (const mode of SENSITIVITIES) expect(en.modes[mode].otherWriters).toBeUndefined();
  });

  it('states, per mode, what detections with it decide of the covered reference texts, each population within its allowance', () => {
    const en = guarded.languages.en!;
    expect(en.guard).toMatchObject({ populations: 2, made: 'with_profile' });
    for (const mode of SENSITIVITIES) {
      const o = en.modes[mode].otherWriters!;
      expect(o.bar).toBe(en.adaptation?.modes[mode].thresholdLogit != null ? 'adapted' : 'calibration');
      let texts = 0;
      let flagged = 0;
      for (const name of ['casual', 'somePolishedVoice'] as const) {
        const d = detections(POPULATIONS[name], guarded, mode);
        texts += d.texts;
        flagged += d.flagged;
        // Within max(model alone + margin, floor), each population on its own.
        const allowance = Math.max(d.model / d.texts + MODE_GUARD_MARGIN[mode], MODE_GUARD_FLOOR[mode]);
        expect([mode, name, d.flagged]).toEqual([mode, name, expect.any(Number)]);
        expect(d.flagged).toBeLessThanOrEqual(Math.floor(allowance * d.texts + 1e-9));
        if (o.most?.id !== `en:${name}`) continue;
        // The calibration-only bar's figures are what detections decide, text for text; an adapted bar's are
        // cross-fitted (each reference text read by a fit that never saw its population, as the profile's own
        // human texts are), so the applied fit, which saw them, may flag fewer: never more than stated here.
        expect([mode, o.most.texts, o.most.modelRate]).toEqual([mode, d.texts, round6(d.model / d.texts)]);
        if (o.bar === 'calibration') expect([mode, o.most.flagged]).toEqual([mode, d.flagged]);
        else expect(d.flagged).toBeLessThanOrEqual(o.most.flagged);
      }
      expect(o.texts).toBe(texts);
      if (o.bar === 'calibration') expect(o.flagged).toBe(flagged);
    }
  });

  it('raises the bars a population would be flagged too much by, and recounts what they flag and catch', () => {
    const en = guarded.languages.en!;
    const was = plain.languages.en!;
    const a = en.adaptation!;
    // Unguarded, the bars flag the second population's polished texts over its allowance.
    const raised = SENSITIVITIES.filter((m) => en.modes[m].otherWriters!.raised);
    expect(raised.length).toBeGreaterThan(0);
    for (const mode of SENSITIVITIES) {
      expect(en.modes[mode].thresholdLogit!).toBeGreaterThanOrEqual(was.modes[mode].thresholdLogit!);
      const am = a.modes[mode];
      if (am.thresholdLogit === null) continue;
      const reading = { coverage: en, adapted: { modelBar: en.modes[mode].thresholdLogit } };
      // At or above the bar the rule sets on the human texts' adapted logits.
      expect(am.thresholdLogit).toBeGreaterThanOrEqual(
        ruleThreshold(ruleTexts(en.samples, 'en', mode, facts, reading), MODE_FPR[mode]).thresholdLogit!,
      );
      const humanFlagged = ruleTexts(en.samples, 'en', mode, facts, reading).filter((t) => flags(t, am.thresholdLogit!)).length;
      const caught = ruleTexts(en.aiSamples!, 'en', mode, facts, reading).filter((t) => flags(t, am.thresholdLogit!)).length;
      // Recounted from the kept samples: the model's logits are on a grid (issue 44 item 6), and an example the profile
      // does not cover is decided on the calibration-only bar, on that logit; only those within a step of it may differ.
      const modelBar = en.modes[mode].thresholdLogit!;
      const nearBar = en.aiSamples!.filter((x) => Math.abs(x.logit - modelBar) <= KEPT_LOGIT_STEP).length;
      expect(am.flagged).toBe(humanFlagged);
      expect(Math.abs(am.caught - caught)).toBeLessThanOrEqual(nearBar);
      expect(am.caught).toBeGreaterThanOrEqual(am.modelCaught);
    }
    // Still adapted: at balanced, the adaptation catches more of the examples than calibration-only.
    expect(a.modes.balanced.caught).toBeGreaterThan(a.modes.balanced.modelCaught);
  });

  it('falls back to calibration-only at a mode where, guarded, it catches fewer of the examples', () => {
    const en = guarded.languages.en!;
    // Conservative allows 1 text of the second population: the adapted bar goes above 3 of its 4 polished texts,
    // and then catches fewer of the examples (cross-validated) than the calibration-only bar on the model's score.
    const c = en.adaptation!.modes.conservative;
    expect(c).toMatchObject({ thresholdLogit: null, thresholdScore: null, fallback: 'fewer_caught' });
    expect(c.caught).toBeLessThan(c.modelCaught);
    expect(en.modes.conservative.otherWriters!.bar).toBe('calibration');
    expect(profileWarnings(guarded)).toContainEqual({
      code: 'mode_fell_back',
      language: 'en',
      mode: 'conservative',
      caught: c.caught,
      modelCaught: c.modelCaught,
      aiTexts: 80,
    });
    // A detection at conservative decides on the model's score with the calibration-only bar.
    const d = detector.analyze(ai[0], { sensitivity: 'conservative', profile: guarded });
    expect(d.calibration).toMatchObject({ applied: true, adapted: false });
    expect(detector.analyze(ai[0], { sensitivity: 'balanced', profile: guarded }).calibration).toMatchObject({
      applied: true,
      adapted: true,
    });
  });

  it('is not adapted when what sets the examples apart is written by a population of human writers (examples_look_human)', () => {
    const p = make(referenceSet(['casual', 'polishedVoice']));
    const en = p.languages.en!;
    expect(en.adaptation).toBeNull();
    expect(en.notAdapted).toMatchObject({ reason: 'examples_look_human', aiTexts: 80 });
    expect(profileWarnings(p)).toContainEqual({
      code: 'not_adapted',
      language: 'en',
      reason: 'examples_look_human',
      aiTexts: 80,
      needed: 50,
    });
    // Without that population, the same examples adapt.
    expect(plain.languages.en!.notAdapted).toBeNull();
  });
});

describe('warnings about the AI examples', () => {
  it('says nothing of examples that differ from the human texts in what they say', () => {
    expect(guarded.languages.en!.examples).toMatchObject({ aiTexts: 80, forms: [] });
    expect(profileWarnings(guarded).filter((w) => w.code.startsWith('examples_'))).toEqual([]);
  });

  it('warns when the model ranks the examples below the human texts (check the labels)', () => {
    const p = make(null, ai.slice(0, 150), human.slice(0, 30));
    const w = profileWarnings(p).find((x) => x.code === 'examples_rank_below_human');
    expect(w).toMatchObject({ language: 'en', aiTexts: 30 });
    expect((w as { auroc: number }).auroc).toBeLessThan(0.5);
    // Too few to adapt (no AI samples kept), the check is read back with the profile.
    expect(p.languages.en!.aiSamples).toBeUndefined();
    expect(parseProfile(JSON.parse(JSON.stringify(p))).languages.en!.examples).toEqual(p.languages.en!.examples);
  });

  it('warns when the examples differ in form, naming the form', () => {
    const cases: [string, string[], string[], object][] = [
      [
        'a shared opening',
        human.slice(0, 150),
        ai.slice(0, 30).map((t) => `Certainly! ${t}`),
        { form: 'opening', word: 'certainly', human: 0, ai: 1 },
      ],
      [
        'Markdown',
        human.slice(0, 150),
        ai.slice(0, 30).map((t) => `## My day\n\n- ${t.replace('. ', '.\n- ')}`),
        { form: 'markdown', human: 0, ai: 1 },
      ],
      [
        'tokenised punctuation',
        human.slice(0, 150).map((t) => t.replace(/([,.])/g, ' $1')),
        ai.slice(0, 30),
        { form: 'tokenised', human: 1, ai: 0 },
      ],
      ['a signature line', human.slice(0, 150), ai.slice(0, 30).map((t) => `${t}\n-- Sam Writer`), { form: 'closing', human: 0, ai: 1 }],
    ];
    for (const [what, texts, examples, finding] of cases) {
      const warnings = profileWarnings(make(null, texts, examples));
      expect([what, warnings]).toEqual([what, expect.arrayContaining([{ code: 'examples_differ_in_form', language: 'en', ...finding }])]);
    }
  });
});

describe('format 3 read back', () => {
  it('reads back what it wrote', () => {
    expect(parseProfile(JSON.parse(JSON.stringify(guarded)))).toEqual(withDefaults(guarded));
  });

  it('refuses other-writers figures that contradict each other or the guard note', () => {
    const cases: [string, (p: Record<string, any>) => void, string][] = [
      ['a rate that is not flagged / texts', (p) => (p.languages.en.modes.balanced.otherWriters.rate = 0.5), 'rate is not flagged / texts'],
      [
        'most over the texts',
        (p) => {
          const most = p.languages.en.modes.balanced.otherWriters.most;
          Object.assign(most, { texts: 10_000, rate: round6(most.flagged / 10_000) });
        },
        'most is not within',
      ],
      ['a mode without figures', (p) => delete p.languages.en.modes.aggressive.otherWriters, 'not every mode states'],
      ['another population count', (p) => (p.languages.en.guard.populations = 5), 'populations is 2, the guard has 5'],
      ['the wrong bar', (p) => (p.languages.en.modes.balanced.otherWriters.bar = 'calibration'), 'not the bar a covered detection applies'],
      ['a fallback keeping its bar', (p) => (p.languages.en.adaptation.modes.balanced.fallback = 'fewer_caught'), 'keeps a bar of its own'],
      [
        'a guard in format 2',
        (p) => {
          p.format = 2;
          delete p.languages.en.examples;
        },
        'guard is not in format 2',
      ],
      ['an examples check in format 2', (p) => (p.format = 2), 'examples is not in format 2'],
      ['figures without a guard note', (p) => delete p.languages.en.guard, 'without a guard note'],
    ];
    for (const [what, change, message] of cases) {
      expect([what, refusal(mutated(guarded, change))]).toEqual([what, expect.stringContaining(message)]);
    }
  });
});

describe('an adapted mode that fell back', () => {
  it('decides on the calibration-only bar, on the model score', () => {
    const fell = parseProfile(
      mutated(guarded, (p) => {
        const m = p.languages.en.adaptation.modes.conservative;
        Object.assign(m, { thresholdLogit: null, thresholdScore: null, fallback: 'fewer_caught', caught: 0, catchRate: 0 });
        p.languages.en.modes.conservative.otherWriters.bar = 'calibration';
      }),
    );
    const s = detector.profileSample(human[0])!;
    const target = { lang: 'en' as const, docType: s.docType, words: s.words, globalLogit: 3, modelLogit: s.logit, evidence: s.evidence };
    const c = applyProfile(fell, { ...target, mode: 'conservative' }, 'v-test');
    expect(c).toMatchObject({
      use: { applied: true, adapted: false },
      thresholdLogit: fell.languages.en!.modes.conservative.thresholdLogit,
      adapted: null,
    });
    const b = applyProfile(fell, { ...target, mode: 'balanced' }, 'v-test');
    expect(b).toMatchObject({
      use: { applied: true, adapted: true },
      thresholdLogit: fell.languages.en!.adaptation!.modes.balanced.thresholdLogit,
    });
  });
});

describe('an older profile (format 2)', () => {
  /** The plain profile as format 2 wrote it. */
  const older = () =>
    parseProfile(
      mutated(plain, (p) => {
        p.format = 2;
        delete p.languages.en.examples;
      }),
    );

  it('is read, marked as made without the guard, and guarded on load with the stored fit applied to the reference texts', () => {
    const p = older();
    expect(p.languages.en!.guard).toBeUndefined();
    const loaded = guardOnLoad(p, facts);
    const en = loaded.languages.en!;
    expect(en.guard).toMatchObject({ made: 'on_load', populations: 2 });
    const fit = p.languages.en!.adaptation!.fit;
    const applied = reference.languages.en!.texts.map((t) => adaptedLogit(fit, t.logit, t.evidence));
    expect(en).toEqual(guardLanguage(p.languages.en!, reference.languages.en!, 'en', facts, applied, 'on_load'));
    for (const mode of SENSITIVITIES) expect(en.modes[mode].otherWriters).toBeDefined();
    expect(SENSITIVITIES.some((m) => en.modes[m].otherWriters!.raised)).toBe(true);
    // Once per profile: the store's cache keeps one parsed object, and findProfile spreads it with its id.
    expect(guardOnLoad(p, facts)).toBe(loaded);
    expect(guardOnLoad({ ...p, id: 'cal_x' }, facts)).toMatchObject({ id: 'cal_x', languages: loaded.languages });
    // Detections decide on the raised bar.
    const s = detector.profileSample(human[0])!;
    const target = {
      lang: 'en' as const,
      docType: s.docType,
      words: s.words,
      mode: 'aggressive' as const,
      globalLogit: 3,
      modelLogit: s.logit,
      evidence: s.evidence,
    };
    const raised = en.adaptation?.modes.aggressive.thresholdLogit ?? en.modes.aggressive.thresholdLogit;
    expect(applyProfile(loaded, target, 'v-test').thresholdLogit).toBe(raised!);
  });

  it('is left as it is without a reference set, and a profile of format 3 is never guarded again', () => {
    const p = older();
    expect(guardOnLoad(p, { ...facts, reference: null })).toBe(p);
    expect(guardOnLoad(plain, facts)).toBe(plain);
  });
});
