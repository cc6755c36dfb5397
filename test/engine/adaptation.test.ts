/**
 * Site adaptation (issue 38): a profile that also learns from the operator's AI examples. Seeded and
 * deterministic; its bars set on human texts by a fit that never saw them; no n-gram of fewer than 5
 * texts weighted (a marker phrase is not learned); calibration-only, and saying why, where it cannot
 * help; and a detection decided on the adapted score, which the answer shows beside the model's.
 */
import { beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { MODE_FPR, round6, SENSITIVITIES } from '../../src/contract';
import { type DetectorPipeline, detectorFor, makeProfile } from '../../src/detector';
import { adaptedLogit, MIN_FEATURE_TEXTS } from '../../src/detector/decide/adaptation';
import { type CalibrationProfile, parseProfile, profileWarnings, ruleTexts, withDefaults } from '../../src/detector/decide/profile';
import { allowedFlags, ruleThreshold } from '../../src/detector/decide/threshold-rule';
import { binomialUpperBound } from '../../src/detector/score/bounds';
import { sharedEngine } from './fixture';
import { mutated, refusal } from './profile-json';
import { aiNotes, humanNotes } from '../../scripts/lib/calibration-texts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const META = { name: 'diaries', modelVersion: 'v-test', createdAt: '2026-11-28T00:00:00.000Z' };
/** Words no text of the sets has, in an order no text has: n-grams of this one text alone. */
const MARKER = 'Quixotic zephyr marmalade obelisk, wobbling thunderously beside seventeen periwinkle accordions.';

let detector: DetectorPipeline;
let profile: CalibrationProfile;
const human = humanNotes(200);
const ai = aiNotes(200);
beforeAll(async () => {
  detector = detectorFor(await sharedEngine(), { modelVersion: 'v-test' });
  profile = makeProfile(detector, human.slice(0, 150), META, ai.slice(0, 80));
});

describe('a profile adapted to AI examples', () => {
  it('is the same profile from the same texts: folds and passes are seeded', () => {
    expect(JSON.stringify(makeProfile(detector, human.slice(0, 150), META, ai.slice(0, 80)))).toBe(JSON.stringify(profile));
  });

  it('learns from the examples and says what it catches of them beside the model alone, cross-validated', () => {
    const en = profile.languages.en!;
    expect(en.notAdapted).toBeNull();
    const a = en.adaptation!;
    expect(a.aiTexts).toBe(80);
    expect(Object.values(a.docTypes).reduce((n, c) => n + c, 0)).toBe(80);
    expect(a.auroc.adapted).toBeGreaterThan(a.auroc.model);
    expect(a.features).toBe(a.fit.grams.length);
    for (const mode of SENSITIVITIES) {
      const m = a.modes[mode];
      expect(m.catchRate).toBeCloseTo(m.caught / 80, 6);
      expect(m.modelCatchRate).toBeCloseTo(m.modelCaught / 80, 6);
    }
    // The model alone catches some of these diary entries at balanced; adapted, the profile catches more.
    expect(a.modes.balanced.caught).toBeGreaterThan(a.modes.balanced.modelCaught);
    expect(profileWarnings(profile)).toEqual([]);
    expect(en.aiSamples).toHaveLength(80);
  });

  it("sets each bar by the threshold rule on the human texts' cross-fitted logits, flagging at most k of them", () => {
    const en = profile.languages.en!;
    const a = en.adaptation!;
    expect(en.samples.every((s) => Number.isFinite(s.adaptedLogit))).toBe(true);
    // Cross-fitted, not the applied fit: the logits the bar is set on are not what the averaged fit gives its own texts.
    const inSample = human.slice(0, 150).map((t) => {
      const s = detector.profileSample(t)!;
      return adaptedLogit(a.fit, s.logit, s.evidence!);
    });
    const crossFitted = [...en.samples.map((s) => s.adaptedLogit!)].sort((x, y) => x - y);
    expect(inSample.sort((x, y) => x - y)).not.toEqual(crossFitted);
    for (const mode of SENSITIVITIES) {
      const again = ruleThreshold(
        ruleTexts(en.samples, 'en', mode, detector.facts!, { coverage: en, adapted: { modelBar: en.modes[mode].thresholdLogit } }),
        MODE_FPR[mode],
      );
      const { caught: _, catchRate: __, modelCaught: ___, modelCatchRate: ____, thresholdScore: _____, ...bar } = a.modes[mode];
      expect(bar).toEqual(again);
      expect(a.modes[mode].flagged).toBeLessThanOrEqual(Math.max(0, allowedFlags(150, MODE_FPR[mode])));
    }
  });

  it('weighs no n-gram seen in fewer than 5 of its texts: a marker phrase in one text is not learned', () => {
    const texts = human.slice(0, 150).map((t, i) => (i === 7 ? `${t} ${MARKER}` : t));
    const marked = makeProfile(detector, texts, META, ai.slice(0, 80));
    const fit = marked.languages.en!.adaptation!.fit;
    const df = new Map<number, number>();
    for (const t of [...texts, ...ai.slice(0, 80)])
      for (const g of detector.profileSample(t)!.evidence!.grams) df.set(g, (df.get(g) ?? 0) + 1);
    const weighted = new Set(fit.grams);
    const markerOnly = [...detector.profileSample(texts[7])!.evidence!.grams].filter((g) => df.get(g)! < MIN_FEATURE_TEXTS);
    // The marker's own n-grams exist (the test can fail), and none of them carries a weight.
    expect(markerOnly.length).toBeGreaterThan(5);
    expect(markerOnly.filter((g) => weighted.has(g))).toEqual([]);
    expect(fit.grams.every((g) => df.get(g)! >= MIN_FEATURE_TEXTS)).toBe(true);
    for (const word of ['Quixotic', 'zephyr', 'marmalade', 'periwinkle']) expect(JSON.stringify(marked)).not.toContain(word);
  });

  it('is calibration-only with too few AI examples, or examples it cannot tell from the human texts, and says why', () => {
    const few = makeProfile(detector, human.slice(0, 150), META, ai.slice(0, 49)).languages.en!;
    expect([few.adaptation, few.notAdapted]).toEqual([null, { reason: 'too_few_ai_texts', aiTexts: 49, minAiTexts: 50, auroc: null }]);
    // "AI examples" that are more of the same human notes (every fourth one, so that both halves draw on the same parts): nothing to learn.
    const same = makeProfile(
      detector,
      human.filter((_, i) => i % 4 !== 3),
      META,
      human.filter((_, i) => i % 4 === 3),
    );
    const en = same.languages.en!;
    expect(en.adaptation).toBeNull();
    expect(['not_separable', 'no_gain']).toContain(en.notAdapted!.reason);
    expect(profileWarnings(same)).toContainEqual({
      code: 'not_adapted',
      language: 'en',
      reason: en.notAdapted!.reason as 'not_separable' | 'no_gain',
      aiTexts: 50,
      needed: 50,
    });
    // Without any AI example: calibration-only, as asked, and no warning about it.
    const none = makeProfile(detector, human.slice(0, 150), META).languages.en!;
    expect(none.notAdapted).toEqual({ reason: 'no_ai_texts', aiTexts: 0, minAiTexts: 50, auroc: null });
  });

  it("decides a covered text on its adapted score, which the answer shows with the model's beside it", () => {
    let adapted = 0;
    for (const text of [...ai.slice(150, 170), ...human.slice(170, 190)]) {
      const plain = detector.analyze(text, { sensitivity: 'balanced' });
      const r = detector.analyze(text, { sensitivity: 'balanced', profile });
      const c = r.calibration!;
      if (!c.adapted) {
        // Not covered (another document type): the model's score, unadapted, as without adaptation.
        expect([r.score, c.applied]).toEqual([plain.score, false]);
        continue;
      }
      adapted++;
      expect(c).toMatchObject({ applied: true, reason: null, adaptedScore: r.score, modelScore: plain.score });
      // The verdict never disagrees with the score shown beside it.
      if (r.verdictKey === 'ai') expect(r.score).toBeGreaterThanOrEqual(90);
      if (r.verdictKey === 'likely_ai') expect(r.score).toBeGreaterThanOrEqual(50);
      if (r.verdictKey === 'human' || r.verdictKey === 'likely_human') expect(r.score).toBeLessThan(50);
      expect(r.measuredError.source).toBe('calibration');
      const isAi = ai.includes(text);
      expect(r.ai).toBe(isAi);
    }
    expect(adapted).toBeGreaterThan(20);
  });

  it('answers unadapted, as the model, when the model changed', () => {
    const plain = detector.analyze(ai[160], { sensitivity: 'balanced' });
    const stale = detector.analyze(ai[160], { sensitivity: 'balanced', profile, modelVersion: 'v-next' });
    expect(stale.calibration).toEqual({ id: null, name: 'diaries', applied: false, reason: 'model_changed', adapted: false });
    expect(stale.score).toBe(plain.score);
  });
});

describe('reading a profile back', () => {
  const mutate = (f: (p: ReturnType<typeof JSON.parse>) => void) => mutated(profile, f);

  it('reads back what it wrote, and a profile of format 1 as calibration-only', () => {
    expect(parseProfile(JSON.parse(JSON.stringify(profile)))).toEqual(withDefaults(profile));
    const old = mutate((p) => {
      p.format = 1;
      delete p.duplicates;
      delete p.languages.en.adaptation;
      delete p.languages.en.notAdapted;
      delete p.languages.en.aiSamples;
      delete p.languages.en.examples;
      for (const s of p.languages.en.samples) delete s.adaptedLogit;
    });
    expect(parseProfile(old).languages.en!.notAdapted).toEqual({ reason: 'no_ai_texts', aiTexts: 0, minAiTexts: 50, auroc: null });
  });

  it('refuses a profile whose figures contradict each other or its samples (issue 40 item 8)', () => {
    const cases: [string, (p: Record<string, any>) => void, string][] = [
      ['999 of 150 flagged, rate 0', (p) => (p.languages.en.modes.balanced.flagged = 999), 'flagged is more than its texts'],
      ['a bound of 0', (p) => (p.languages.en.modes.conservative.upperBound = 0), 'upperBound is not the bound'],
      ['a rate that is not flagged / texts', (p) => (p.languages.en.modes.aggressive.rate = 0), 'rate is not flagged / texts'],
      ['texts: 10^9', (p) => (p.languages.en.texts = 1e9), 'the language keeps 150 samples'],
      [
        'more flagged than the rule allows',
        (p) => {
          const m = p.languages.en.modes.balanced;
          m.flagged = 140;
          m.rate = round6(140 / 150);
          m.upperBound = round6(binomialUpperBound(140, 150));
        },
        'more than the rule allows',
      ],
      ['n-grams out of order', (p) => p.languages.en.adaptation.fit.grams.reverse(), 'not ascending'],
      ['a style weight missing', (p) => p.languages.en.adaptation.fit.style.weights.pop(), 'style.weights'],
      ['a catch over the examples', (p) => (p.languages.en.adaptation.modes.balanced.caught = 81), 'does not count the AI examples'],
    ];
    for (const [what, change, message] of cases) expect([what, refusal(mutate(change))]).toEqual([what, expect.stringContaining(message)]);
  });
});
