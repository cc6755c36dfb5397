/**
 * Calibration profiles (issue 34): the threshold rule (an order statistic with the split-conformal
 * guarantee and its exact 95% bound), the errors of a set too small, coverage, staleness, and a
 * detection with a profile through the real detector: the score never moves, the verdict does.
 */
import { beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { CodedError, MODE_FPR, round6, SENSITIVITIES } from '../../src/contract';
import { type DetectorPipeline, detectorFor, makeProfile } from '../../src/detector';
import {
  applyProfile,
  type CalibrationProfile,
  type LangProfileSample,
  MIN_PROFILE_TEXTS,
  PROFILE_FORMAT,
  publicProfile,
} from '../../src/detector/decide/profile';
import { allowedFlags, modeThreshold } from '../../src/detector/decide/threshold-rule';
import { buildProfile } from '../../src/detector/learn/profile';
import { binomialUpperBound } from '../../src/detector/score/bounds';
import { DOC_TYPES, type DocType } from '../../src/detector/score/doctype';
import { sharedEngine } from './fixture';
import { AI_EN, HUMAN_EN, HUMAN_EN_2 } from './texts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const META = { name: 'site', modelVersion: 'v-test', createdAt: '2026-11-27T00:00:00.000Z' };

/** `n` English samples with logits lo..hi evenly spread, of one type and length unless given. */
function samples(n: number, lo: number, hi: number, docType: (i: number) => DocType = () => 'essay', words = (_: number) => 200) {
  return Array.from(
    { length: n },
    (_, i): LangProfileSample => ({
      lang: 'en',
      logit: lo + ((hi - lo) * i) / Math.max(1, n - 1),
      probability: 0.5,
      words: words(i),
      docType: docType(i),
    }),
  );
}

/** The CodedError a call throws. */
function thrown(f: () => unknown): CodedError {
  try {
    f();
  } catch (e) {
    if (e instanceof CodedError) return e;
    throw e;
  }
  throw new Error('did not throw');
}

describe('the threshold rule', () => {
  it('leaves k of n texts above the threshold, the largest k with (k + 1) / (n + 1) within the promise', () => {
    expect([50, 99, 100, 412].map((n) => SENSITIVITIES.map((m) => allowedFlags(n, MODE_FPR[m])))).toEqual([
      [-1, 0, 4],
      [0, 2, 9],
      [0, 2, 9],
      [3, 11, 40],
    ]);
  });

  it('puts the threshold just above the (k + 1)-th highest logit, with the exact bound of k of n', () => {
    const logits = Array.from({ length: 100 }, (_, i) => i + 1); // 1..100
    const aggressive = modeThreshold(logits, 0.1);
    expect(aggressive.flagged).toBe(9); // 92..100
    expect(aggressive.thresholdLogit!).toBeGreaterThan(91);
    expect(aggressive.thresholdLogit!).toBeLessThan(91.001);
    expect(aggressive.rate).toBe(0.09);
    expect(aggressive.upperBound).toBeCloseTo(binomialUpperBound(9, 100), 6);
    expect(aggressive.upperBound).toBeCloseTo(0.1518, 3);
    const conservative = modeThreshold(logits, 0.01);
    expect(conservative).toMatchObject({ flagged: 0, texts: 100, rate: 0 });
    expect(conservative.thresholdLogit!).toBeGreaterThan(100);
    // 0 of 100 is not "0%": at most 3.0% with 95% confidence.
    expect(conservative.upperBound).toBeCloseTo(1 - 0.05 ** (1 / 100), 6);
  });

  it('sets no threshold where n cannot keep the promise, and quotes the best bound the texts allow', () => {
    const m = modeThreshold(
      Array.from({ length: 60 }, (_, i) => i),
      0.01,
    );
    expect(m).toEqual({ thresholdLogit: null, flagged: 0, texts: 60, rate: 0, upperBound: round6(binomialUpperBound(0, 60)) });
    expect(m.upperBound).toBeGreaterThan(0.04);
  });

  it('keeps the promise on average over calibration sets drawn from one population (simulated)', () => {
    // Human logits ~ N(0, 1); 2000 calibration sets of 150: the share of the population above each threshold.
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) + 0.5) / 2 ** 31;
    const normal = () => Math.sqrt(-2 * Math.log(rand())) * Math.cos(2 * Math.PI * rand());
    const tail = (x: number) => 0.5 * erfc(x / Math.SQRT2);
    for (const mode of SENSITIVITIES) {
      let sum = 0;
      let over = 0;
      for (let trial = 0; trial < 2000; trial++) {
        const xs = Array.from({ length: 150 }, normal).sort((a, b) => a - b);
        const m = modeThreshold(xs, MODE_FPR[mode]);
        const fpr = tail(m.thresholdLogit!);
        sum += fpr;
        if (fpr > m.upperBound) over++;
      }
      expect(sum / 2000).toBeLessThanOrEqual(MODE_FPR[mode] * 1.05);
      // The stated bound holds in at least 95% of the calibration sets (a little noise allowed).
      expect(over / 2000).toBeLessThan(0.065);
    }
  });
});

/** Complementary error function (Abramowitz-Stegun 7.1.26, ample for a test). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

describe('buildProfile', () => {
  it('refuses a language with texts but under the minimum, naming it, the count and the minimum', () => {
    const e = thrown(() => buildProfile([...samples(60, 0, 1), ...samples(12, 0, 1).map((s) => ({ ...s, lang: 'es' as const }))], META));
    expect([e.code, e.status, e.params]).toEqual(['calibration_too_small', 422, { language: 'es', count: 12, min: 50, minWords: 20 }]);
    expect(thrown(() => buildProfile(samples(49, 0, 1), META)).params.count).toBe(49);
    const empty = thrown(() => buildProfile([], META));
    expect([empty.code, empty.status]).toEqual(['calibration_empty', 422]);
    expect(MIN_PROFILE_TEXTS).toBe(50);
  });

  it('keeps scores only, sorted, with thresholds, coverage and the meta; the public view drops the samples', () => {
    const p = buildProfile(
      samples(
        120,
        -5,
        2,
        (i) => (i % 3 === 0 ? 'news' : i % 3 === 1 ? 'essay' : 'email'),
        (i) => (i % 2 ? 100 : 200),
      ).concat(
        samples(
          10,
          0,
          1,
          () => 'review',
          () => 30,
        ),
      ),
      META,
    );
    const en = p.languages.en!;
    expect(p).toMatchObject({ format: PROFILE_FORMAT, name: 'site', modelVersion: 'v-test', createdAt: META.createdAt });
    expect(p.languages.es).toBeUndefined();
    expect(en.texts).toBe(130);
    expect(en.samples.map((s) => s.logit)).toEqual([...en.samples.map((s) => s.logit)].sort((a, b) => a - b));
    expect(Object.keys(en.samples[0]).sort()).toEqual(['docType', 'logit', 'probability', 'words']);
    // Types with 20+ texts only (10 reviews are too few); lengths 80-299 (30-word texts: too few).
    expect(en.docTypes).toEqual(DOC_TYPES.filter((t) => t === 'essay' || t === 'news' || t === 'email'));
    expect(en.words).toEqual({ min: 80, max: 299 });
    expect(SENSITIVITIES.map((m) => en.modes[m].flagged)).toEqual([0, 2, 12]);
    const pub = publicProfile(p);
    expect('samples' in pub.languages.en!).toBe(false);
    expect(pub.languages.en!.modes).toEqual(en.modes);
  });

  it('states each threshold on the score scale at the middle of the covered length, never below even odds', () => {
    const seen: [string, number, number][] = [];
    // A made-up calibration: p = sigmoid(logit) whatever the length, so the score is 100 * sigmoid(threshold).
    const probabilityAt = (lang: string, logit: number, words: number) => (seen.push([lang, logit, words]), 1 / (1 + Math.exp(-logit)));
    const p = buildProfile(
      samples(400, -1, 3, undefined, (i) => (i % 2 ? 100 : 200)),
      { ...META, probabilityAt },
    );
    const en = p.languages.en!;
    expect(en.words).toEqual({ min: 80, max: 299 });
    for (const mode of SENSITIVITIES) {
      const m = en.modes[mode];
      expect(m.thresholdScore).toBe(Math.max(50, Math.round(100 / (1 + Math.exp(-m.thresholdLogit!)))));
    }
    expect(en.modes.conservative.thresholdScore).toBeGreaterThan(90);
    // The middle (geometric) of 80-299 words.
    expect(seen.every(([lang, , words]) => lang === 'en' && Math.abs(words - Math.sqrt(80 * 299)) < 1e-9)).toBe(true);
    // Under even odds the bar is held at 50: a profile never calls a score under 50 AI.
    const low = buildProfile(samples(400, -6, -2), { ...META, probabilityAt });
    expect(SENSITIVITIES.map((m) => low.languages.en!.modes[m].thresholdScore)).toEqual([50, 50, 50]);
    // Without the model's calibration (offline tests) the field is absent, never a made-up number.
    expect(buildProfile(samples(400, -1, 3), META).languages.en!.modes.balanced.thresholdScore).toBeUndefined();
  });
});

describe('coverage', () => {
  it("does not cover a type the classifier gave a few of a large profile's texts (20+, but under 5%)", () => {
    const essays = samples(1000, -5, 2, () => 'essay');
    const posts = samples(30, -5, 2, () => 'social_post');
    expect(buildProfile([...essays, ...posts], META).languages.en!.docTypes).toEqual(['essay']);
    // The same 30 posts beside 400 essays are 7%: covered.
    expect(buildProfile([...essays.slice(0, 400), ...posts], META).languages.en!.docTypes).toEqual(['essay', 'social_post']);
  });
});

describe('applyProfile', () => {
  const profile: CalibrationProfile = buildProfile(samples(300, -6, -1), META);
  const target = { lang: 'en' as const, docType: 'essay' as DocType, words: 200, mode: 'balanced' as const, globalLogit: 2.9 };
  const own = profile.languages.en!.modes.balanced.thresholdLogit!;

  it('uses the profile where it covers the text, with its own measured error', () => {
    const a = applyProfile(profile, target, 'v-test');
    expect(a.use).toEqual({ id: null, name: 'site', applied: true, reason: null, adapted: false });
    expect(a.thresholdLogit).toBe(own);
    expect(own).toBeLessThan(-1);
    expect(a.measured).toMatchObject({ flagged: 8, texts: 300, upperBound: round6(binomialUpperBound(8, 300)) });
  });

  it('holds texts it does not cover to the stricter bar, and says why', () => {
    expect(applyProfile(profile, { ...target, docType: 'social_post' }, 'v-test')).toEqual({
      use: { id: null, name: 'site', applied: false, reason: 'doc_type_not_covered', adapted: false },
      thresholdLogit: 2.9,
      measured: null,
      adapted: null,
    });
    const long = applyProfile(profile, { ...target, words: 320 }, 'v-test');
    expect([long.use.reason, long.thresholdLogit]).toEqual(['length_not_covered', 2.9]);
    // A profile stricter than the model stays stricter on what it does not cover.
    const strict = buildProfile(samples(300, 0, 8), META);
    const s = applyProfile(strict, { ...target, words: 30 }, 'v-test');
    expect([s.use.reason, s.thresholdLogit]).toEqual(['length_not_covered', strict.languages.en!.modes.balanced.thresholdLogit]);
    expect(applyProfile(profile, { ...target, lang: 'es' }, 'v-test').use.reason).toBe('language_not_covered');
  });

  it('falls back to the global threshold when stale or too small for the mode', () => {
    expect(applyProfile(profile, target, 'v-other')).toEqual({
      use: { id: null, name: 'site', applied: false, reason: 'model_changed', adapted: false },
      thresholdLogit: 2.9,
      measured: null,
      adapted: null,
    });
    const small = buildProfile(samples(60, -6, -1), META);
    const c = applyProfile(small, { ...target, mode: 'conservative', globalLogit: 3.8 }, 'v-test');
    expect([c.use.reason, c.thresholdLogit, c.measured]).toEqual(['too_few_texts', 3.8, null]);
    // ...unless the population's own human texts reach the global bar: then just above the highest of them.
    const high = applyProfile(buildProfile(samples(60, 0, 5), META), { ...target, mode: 'conservative', globalLogit: 3.8 }, 'v-test');
    expect(high.use.reason).toBe('too_few_texts');
    expect(high.thresholdLogit).toBeGreaterThan(5);
    expect(high.thresholdLogit).toBeLessThan(5.000001);
    expect(applyProfile(small, target, 'v-test').use.applied).toBe(true);
  });
});

describe('a detection with a profile', () => {
  let detector: DetectorPipeline;
  // One passage, AI sentences between human ones, in pairs (AI, human, human, AI...), so that no human
  // or AI run is long enough to be a passage of its own: score 90, `inconclusive` at every global
  // threshold (360 words; with the model of 2026-11-27, whose English threshold is lower, one AI
  // sentence after every human one read as a mixed passage).
  const ai = AI_EN.split(/(?<=\.) /);
  const between = `${HUMAN_EN} ${HUMAN_EN_2}`
    .split(/(?<=[.!]) /)
    .flatMap((s, i) => (i % 2 ? [s, ai[i % ai.length]] : [ai[i % ai.length], s]))
    .join(' ');
  beforeAll(async () => {
    detector = detectorFor(await sharedEngine(), { modelVersion: 'v-test' });
  });

  /** A profile whose texts score from lo to hi, covering every type and length. */
  const covering = (lo: number, hi: number) =>
    buildProfile(
      samples(
        600,
        lo,
        hi,
        (i) => DOC_TYPES[i % DOC_TYPES.length],
        (i) => [25, 60, 100, 200, 400][Math.floor(i / 7) % 5],
      ),
      META,
    );

  it('moves the verdict and the measured error, never the score', () => {
    const plain = detector.analyze(between, { sensitivity: 'conservative' });
    expect(plain.verdictKey).toBe('inconclusive');
    const lenient = detector.analyze(between, { sensitivity: 'conservative', profile: covering(-8, -2) });
    expect([lenient.score, lenient.probability]).toEqual([plain.score, plain.probability]);
    expect(lenient.verdictKey).toBe('likely_ai');
    expect(lenient.calibration).toEqual({ id: null, name: 'site', applied: true, reason: null, adapted: false });
    expect(lenient.measuredError).toMatchObject({ source: 'calibration', humanTexts: 600, humanFlaggedRate: round6(5 / 600) });
    expect(lenient.measuredError.upperBound).toBe(round6(binomialUpperBound(5, 600)));
    expect(lenient.measuredError.text).toBe('In your 600 calibration texts, this mode flagged 0.8%; for texts like them, at most 1.7%.');
    expect(detector.analyze(between, { sensitivity: 'conservative', profile: covering(-8, -2), labelLang: 'es' }).measuredError.text).toBe(
      'En sus 600 textos de calibración, este modo marcó el 0,8\u00a0%; en textos como ellos, como mucho el 1,7\u00a0%.',
    );
    // The coherence of the answer follows the verdict: AI-side bullets and highlights.
    expect(lenient.bullets[0].leaning).toBe('ai');
    expect(lenient.textAnnotations.length).toBeGreaterThan(0);
  });

  it('answers as without a profile when the model changed, and says so', () => {
    const plain = detector.analyze(AI_EN, { sensitivity: 'aggressive' });
    const stale = detector.analyze(AI_EN, { sensitivity: 'aggressive', profile: covering(20, 30), modelVersion: 'v-new' });
    expect(stale.calibration).toEqual({ id: null, name: 'site', applied: false, reason: 'model_changed', adapted: false });
    expect({ ...stale, msCost: 0, calibration: null }).toEqual({ ...plain, msCost: 0, calibration: null });
    expect(plain.measuredError.source).toBe('model');
    // The same strict profile, current: the AI text stays under its bar.
    expect(detector.analyze(AI_EN, { sensitivity: 'aggressive', profile: covering(20, 30) }).verdictKey).toBe('inconclusive');
  });

  it('is made from texts alone: scores kept, words and text not, short texts skipped', () => {
    const texts = Array.from({ length: 55 }, (_, i) => `${HUMAN_EN} Entry ${i}.`);
    const p = makeProfile(detector, [...texts, 'too short to use'], { name: 'diary', modelVersion: 'v-test', createdAt: META.createdAt });
    expect(p.languages.en!.texts).toBe(55);
    expect(JSON.stringify(p)).not.toContain('neighbour');
    expect(detector.profileSample('too short to use')).toBeNull();
  });
});
