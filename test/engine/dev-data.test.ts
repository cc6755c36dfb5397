/**
 * Checks on the shared dev split (../shared/data/*.dev.jsonl, or $DATA_DIR): the runtime engine
 * reproduces the thresholds' false-positive budgets per language and mode, learner (non-native)
 * essays are not flagged more than native human writing, every text gets a finite score, and
 * disguised dev texts score like their clean form. Skipped, with a message, when the data is absent.
 */
import { beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { dataDir, familyOf, hasData, loadRows, splitFiles, UNTRAINED_FAMILIES, type Row } from '../../scripts/lib/data';
import type { Engine } from '../../src/detector/score/engine';
import { decideVerdict } from '../../src/detector/decide/verdict';
import { isAiVerdict, SENSITIVITIES, type Sensitivity, type TextLang } from '../../src/contract';
import { detectorFor } from '../../src/detector';
import { sharedEngine } from './fixture';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const DATA = hasData();
if (!DATA) console.warn(`test/engine/dev-data.test.ts: skipped, the shared data is absent (${dataDir()}; set DATA_DIR)`);

/** Issue #2: the most false positives each mode may make on human dev texts. */
const MODE_FPR: Record<Sensitivity, number> = { conservative: 0.01, balanced: 0.03, aggressive: 0.1 };
/** Domains of human texts written by non-native writers (learner and TOEFL essays). */
const NON_NATIVE = /^(learner_essay|toefl_essay)/;
/** Texts per label for the (slower) disguise check. */
const DISGUISE_SAMPLE = 150;
const MAX_SCORE_DRIFT = 2;
/** Issue #3: "a human text at conservative should usually have none" (measured: en 3.4%, es 1.0%). */
const MAX_HUMAN_ANNOTATED = 0.1;
/** Share of AI dev texts called AI at aggressive: at least this many (en 64%, es 1.6%: Spanish is mostly inconclusive, model card). */
const MIN_AI_CALLED = 0.01;

interface Scored extends Row {
  /** Language the engine detected (what the service decides with). */
  detected: TextLang;
  probability: number;
  score: number;
  /** Words as the scorer counts them (the calibration cell). */
  words: number;
}

let engine: Engine;
let scored: Scored[] = [];
beforeAll(async () => {
  if (!DATA) return;
  engine = await sharedEngine();
  scored = loadRows(splitFiles('dev')).map((r) => {
    const a = engine.analyze(r.text);
    return { ...r, detected: a.language, probability: a.probability, score: a.score, words: a.scoredWords };
  });
});

const flagged = (rows: Scored[], mode: Sensitivity) =>
  rows.filter((r) => isAiVerdict(decideVerdict(engine.model, r.probability, r.detected, r.words, mode))).length;

describe.skipIf(!DATA)('dev split (needs ../shared/data)', () => {
  it('gives every dev text a finite probability and an integer score in 0..100', () => {
    expect(scored.length).toBeGreaterThan(1000);
    const bad = scored.filter((r) => !Number.isFinite(r.probability) || !Number.isInteger(r.score) || r.score < 0 || r.score > 100);
    const example: string | null = bad.length ? bad[0].text.slice(0, 80) : null;
    expect({ bad: bad.length, example }).toEqual({ bad: 0, example: null });
  });

  for (const lang of ['en', 'es'] as const) {
    const humansOf = () => scored.filter((r) => r.label === 'human' && r.lang === lang);

    it(`keeps the false-positive rate of each mode within budget (give or take one text) on ${lang} human dev texts`, () => {
      const humans = humansOf();
      expect(humans.length).toBeGreaterThan(100);
      for (const mode of SENSITIVITIES) {
        const fp = flagged(humans, mode);
        const allowed = Math.floor(MODE_FPR[mode] * humans.length);
        expect({ lang, mode, fp, allowed, within: fp <= allowed + 1 }).toMatchObject({ within: true });
      }
    });

    it(`does not flag ${lang} learner essays more than native human writing (conservative)`, () => {
      const humans = scored.filter((r) => r.label === 'human' && r.lang === lang);
      const learners = humans.filter((r) => NON_NATIVE.test(r.domain));
      const natives = humans.filter((r) => !NON_NATIVE.test(r.domain));
      expect(learners.length).toBeGreaterThan(50);
      const learnerFpr = flagged(learners, 'conservative') / learners.length;
      const nativeFpr = flagged(natives, 'conservative') / natives.length;
      // Parity, give or take one text (rates of a fraction of a percent are noisy).
      expect({ lang, learnerFpr, nativeFpr, parity: learnerFpr <= nativeFpr + 1 / learners.length }).toMatchObject({ parity: true });
    });
  }

  // BUG (reported to the lead): scripts/train.ts sets each threshold a hair (1e-12) above the
  // allowed human dev score, computed from float weights and the labelled language; at runtime the
  // weights are int16-quantised, so the boundary text can land just above the threshold and a mode
  // flags one human dev text too many (with the model of 63c83a4: es conservative 19/1862 = 1.02% >
  // 1%, es aggressive 187 > 186). Calibrate on the engine's own runtime probabilities (after
  // setWeights of the quantised table) or put the threshold midway to the next score.
  it('keeps the false-positive rate of each mode within budget exactly, in both languages', () => {
    for (const lang of ['en', 'es'] as const) {
      const humans = scored.filter((r) => r.label === 'human' && r.lang === lang);
      for (const mode of SENSITIVITIES) {
        const fpr = flagged(humans, mode) / humans.length;
        expect({ lang, mode, fpr, budget: MODE_FPR[mode], within: fpr <= MODE_FPR[mode] }).toMatchObject({ within: true });
      }
    }
  });

  it('leaves most human dev texts without annotations at conservative, and annotates every AI text called AI at aggressive', () => {
    const detector = detectorFor(engine);
    for (const lang of ['en', 'es'] as const) {
      const humans = scored.filter((r) => r.label === 'human' && r.lang === lang);
      const ai = scored.filter((r) => r.label === 'ai' && r.lang === lang);
      const humanAnnotated = humans.filter((r) => detector.analyze(r.text).textAnnotations.length > 0).length / humans.length;
      const calledAi = ai.map((r) => detector.analyze(r.text, { sensitivity: 'aggressive' })).filter((a) => a.ai);
      const unannotated = calledAi.filter((a) => a.textAnnotations.length === 0).length;
      expect({ lang, humanAnnotated, ok: humanAnnotated <= MAX_HUMAN_ANNOTATED }).toMatchObject({ ok: true });
      expect(calledAi.length).toBeGreaterThan(MIN_AI_CALLED * ai.length);
      expect({ lang, unannotated }).toEqual({ lang, unannotated: 0 });
    }
  }, 60_000);

  it('ranks AI dev texts above human ones far more often than not (AUROC >= 0.9 per language, families it trains on)', () => {
    // AuTexTification is never trained on (scripts/lib/data.ts UNTRAINED_FAMILIES): its dev texts are
    // out of source, and `bun run eval --loso` reports them as such.
    const trained = scored.filter((r) => !UNTRAINED_FAMILIES.has(familyOf(r)));
    for (const lang of ['en', 'es'] as const) {
      const ai = trained.filter((r) => r.lang === lang && r.label === 'ai').map((r) => r.probability);
      const hu = trained.filter((r) => r.lang === lang && r.label === 'human').map((r) => r.probability);
      // Mann-Whitney U via ranks.
      const all = [...ai.map((p) => [p, 1] as const), ...hu.map((p) => [p, 0] as const)].sort((a, b) => a[0] - b[0]);
      let rankSum = 0;
      for (let i = 0; i < all.length; ) {
        let j = i;
        while (j < all.length && all[j][0] === all[i][0]) j++;
        const mid = (i + j + 1) / 2;
        for (let k = i; k < j; k++) if (all[k][1] === 1) rankSum += mid;
        i = j;
      }
      const auroc = (rankSum - (ai.length * (ai.length + 1)) / 2) / (ai.length * hu.length);
      expect({ lang, auroc, ok: auroc >= 0.9 }).toEqual({ lang, auroc, ok: true });
    }
  });

  it('scores dev texts disguised with zero-width characters and Cyrillic о like their clean form', () => {
    const disguise = (t: string) => t.replace(/o/g, 'о').replace(/\b(\p{L}{2})(\p{L}{2,})/gu, '$1\u200B$2');
    const sample = [
      ...scored.filter((r) => r.label === 'ai').slice(0, DISGUISE_SAMPLE),
      ...scored.filter((r) => r.label === 'human').slice(0, DISGUISE_SAMPLE),
    ];
    const drifts = sample.map((r) => ({ source: r.source, clean: r.score, disguised: engine.analyze(disguise(r.text)).score }));
    const worst = drifts.reduce((a, b) => (Math.abs(b.disguised - b.clean) > Math.abs(a.disguised - a.clean) ? b : a));
    expect({ worst, drift: Math.abs(worst.disguised - worst.clean) <= MAX_SCORE_DRIFT }).toMatchObject({ drift: true });
  });
});
