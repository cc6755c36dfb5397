/**
 * The measured error each verdict carries (issue 27): the tables `bun run train` writes
 * (scripts/lib/measured-error.ts) and the lookup the decision makes (src/detector/decide/measured-error.ts),
 * with the most specific kind that has enough held-out texts answering; and the thin-cell rule of
 * calibration (a cell borrows its neighbours' lengths until both labels have enough texts).
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { checkBounds, familyUpperBound, measuredErrors, MIN_BOUND_FAMILY_TEXTS, type HumanOutcome } from '../../scripts/lib/measured-error';
import { binomialUpperBound } from '../../src/detector/score/bounds';
import { cellSpan, MIN_CELL_TEXTS_PER_LABEL } from '../../scripts/lib/calibrate';
import { measuredError } from '../../src/detector/decide/measured-error';
import { measuredErrorView } from '../../src/detector/explain';
import { MIN_RATE_TEXTS } from '../../src/detector/score/calibration';
import type { ModelFile } from '../../src/detector/score/model';
import { sharedDetector, sharedEngine } from './fixture';
import { detectorFor } from '../../src/detector';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** `n` human outcomes of one kind (one family per kind unless named), the first `flagged` of them flagged at every mode. */
const outcomes = (
  n: number,
  flagged: number,
  docType: HumanOutcome['docType'],
  words: number,
  lang: 0 | 1 = 0,
  family: string = docType,
): HumanOutcome[] =>
  Array.from({ length: n }, (_, i) => ({ family, lang, docType, words, flagged: [i < flagged, i < flagged, i < flagged] }));
const all = (v: number) => ({ conservative: v, balanced: v, aggressive: v });
const up = (k: number, n: number) => Math.ceil(1e6 * binomialUpperBound(k, n)) / 1e6;

describe('measured error tables', () => {
  const tables = measuredErrors([...outcomes(200, 4, 'academic', 200), ...outcomes(50, 5, 'essay', 200), ...outcomes(300, 0, 'news', 60)]);
  const model = { heldOutErrors: tables } as unknown as ModelFile;

  it('keeps the rates of kinds with enough texts, by type and length, type, length and language', () => {
    expect(tables.en['academic|3']).toEqual({ texts: 200, flagged: all(0.02), upperBound: all(up(4, 200)) });
    expect(tables.en['academic|*'].texts).toBe(200);
    // Two families of that length: the worse one (5 of 50 essays) with its binomial bound, not the pooled 9 of 250.
    expect(tables.en['*|3']).toEqual({ texts: 250, flagged: all(0.036), upperBound: all(up(5, 50)) });
    expect(tables.en['*|3'].upperBound.conservative).toBeGreaterThan(0.1);
    expect(tables.en['*|*'].texts).toBe(550);
    // Under MIN_RATE_TEXTS the rate is not kept: a kind of 50 texts measures nothing at 1%.
    expect(50).toBeLessThan(MIN_RATE_TEXTS);
    expect(tables.en['essay|3']).toBeUndefined();
    expect(tables.en['essay|*']).toBeUndefined();
  });

  it('answers with the most specific kind measured', () => {
    expect(measuredError(model, 'en', 'academic', 180, 'conservative')).toEqual({
      rate: 0.02,
      texts: 200,
      upperBound: up(4, 200),
      source: 'model',
      docType: 'academic',
      words: { min: 150, max: 299 },
    });
    // Too few essays: every type of that length answers.
    expect(measuredError(model, 'en', 'essay', 180, 'balanced')).toEqual({
      rate: 0.036,
      texts: 250,
      upperBound: up(5, 50),
      source: 'model',
      docType: null,
      words: { min: 150, max: 299 },
    });
    // A 500-word news text: no news of that length, no news by length... the news texts of any length.
    expect(measuredError(model, 'en', 'news', 500, 'aggressive')).toEqual({
      rate: 0,
      texts: 300,
      upperBound: up(0, 300),
      source: 'model',
      docType: 'news',
      words: null,
    });
    // Never a bare 0: 300 texts with none flagged still bound the rate above zero.
    expect(up(0, 300)).toBeGreaterThan(0.009);
  });

  it('bounds a group by its worst family of enough texts, never under the pooled bound', () => {
    const n = MIN_BOUND_FAMILY_TEXTS;
    // A small family's 2 of 10 flags speak for nothing on their own; the pooled bound still counts them.
    expect(
      familyUpperBound([
        { flagged: 0, texts: 1000 },
        { flagged: 2, texts: 10 },
      ]),
    ).toBeCloseTo(binomialUpperBound(2, 1010), 9);
    expect(
      familyUpperBound([
        { flagged: 0, texts: 1000 },
        { flagged: 3, texts: n },
      ]),
    ).toBeCloseTo(binomialUpperBound(3, n), 9);
    expect(familyUpperBound([{ flagged: 10, texts: 1000 }])).toBeCloseTo(binomialUpperBound(10, 1000), 9);
  });

  it('validates the bound held out by family: each family against the tables of the others', () => {
    // Three families of one kind: two clean, one flagged 6% of the time.
    const data = [
      ...outcomes(400, 0, 'news', 200, 0, 'a'),
      ...outcomes(400, 2, 'news', 200, 0, 'b'),
      ...outcomes(400, 24, 'news', 200, 0, 'c'),
    ];
    const checks = checkBounds(data).filter((c) => c.mode === 0);
    const c = checks.find((x) => x.family === 'c')!;
    // Answered from a and b only (2 of 800 flagged): the bound those two give does not cover c's 6%.
    expect(c.rate).toBeCloseTo(0.06, 9);
    expect(c.bound).toBeCloseTo(up(2, 400), 6);
    expect(c.rate).toBeGreaterThan(c.bound);
    // a and b are covered by the others' worst family (c).
    for (const f of ['a', 'b']) {
      const x = checks.find((y) => y.family === f)!;
      expect(x.rate).toBeLessThanOrEqual(x.bound);
      expect(x.bound).toBeGreaterThanOrEqual(0.06);
    }
  });

  it('says it in a sentence a person reads, in the label language', () => {
    const m = measuredError(model, 'en', 'academic', 180, 'conservative');
    expect(measuredErrorView(m, 'en', 'en').text).toBe(
      'In our tests, this mode flagged 2% of 200 human-written texts of this kind (Academic text, 150-299 words, English); for texts like them, at most 4.5%.',
    );
    expect(measuredErrorView(m, 'en', 'es').text).toBe(
      'En nuestras pruebas, este modo marcó el 2\u00a0% de 200 textos escritos por personas de este tipo (Texto académico, 150-299 palabras, inglés); en textos como ellos, como mucho el 4,5\u00a0%.',
    );
    const none = measuredErrorView(
      measuredError({ heldOutErrors: { en: {}, es: {} } } as unknown as ModelFile, 'es', 'news', 80, 'conservative'),
      'es',
      'en',
    );
    expect(none.humanFlaggedRate).toBeNull();
    expect(none.text).toBe('This mode was not measured on human-written texts of this kind.');
  });
});

describe('the shipped model', () => {
  it('carries a measured error with every answer, from its own held-out tables', async () => {
    const detector = await sharedDetector();
    const text =
      'Bees pollinate many crops, and farmers depend on them. In many regions the number of colonies has fallen, and scientists are still debating why. Pesticides, parasites and the loss of wild flowers all play a part, and no single cause explains every loss.';
    for (const sensitivity of ['conservative', 'balanced', 'aggressive'] as const) {
      const a = detector.analyze(text, { sensitivity });
      expect(a.measuredError.humanTexts).toBeGreaterThanOrEqual(MIN_RATE_TEXTS);
      expect(a.measuredError.humanFlaggedRate).not.toBeNull();
      expect(a.measuredError.humanFlaggedRate!).toBeGreaterThanOrEqual(0);
      expect(a.measuredError.humanFlaggedRate!).toBeLessThanOrEqual(0.2);
      expect(a.measuredError.text).toContain('In our tests');
      // The model side of "at most X%": above the point rate, never a bare 0.
      const pipeline = detectorFor(await sharedEngine());
      const m = pipeline.decide(text, pipeline.score(text), sensitivity).measuredError;
      expect(m.upperBound).toBeGreaterThan(0);
      expect(m.upperBound).toBeGreaterThanOrEqual(m.rate);
    }
    const c = detector.analyze(text, { sensitivity: 'conservative' }).measuredError.humanFlaggedRate!;
    const g = detector.analyze(text, { sensitivity: 'aggressive' }).measuredError.humanFlaggedRate!;
    expect(g).toBeGreaterThanOrEqual(c);
  });
});

describe('thin calibration cells', () => {
  it('borrow neighbouring lengths until both labels have enough held-out texts', () => {
    const n = MIN_CELL_TEXTS_PER_LABEL;
    const counts = [
      { human: 2 * n, ai: 2 * n },
      { human: 2 * n, ai: n },
      { human: n, ai: n / 2 },
      { human: n, ai: n / 4 },
      { human: n, ai: 2 },
    ];
    expect(cellSpan(counts, 0)).toEqual([0, 0]);
    expect(cellSpan(counts, 1)).toEqual([1, 1]);
    expect(cellSpan(counts, 2)).toEqual([1, 2]);
    // The longest Spanish cell (2 AI texts) borrows from the shorter ones.
    expect(cellSpan(counts, 4)).toEqual([1, 4]);
  });
});
