/**
 * Issue 43 item 2: reference human writers join the negatives of a profile's adaptation, weighted so
 * that the site's own texts count most, each population in one fold of the cross-fit, and the privacy
 * rule counting the site's texts only. Without them, the fit is the one before (the same numbers as
 * 81133db, by digest), and the trainers `bun run train` shares give the same numbers. On synthetic
 * evidence shaped like the core's (scripts/lib/fit-evidence.ts; the digests below depend on it).
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { adaptedLogit, MIN_FEATURE_TEXTS } from '../../src/detector/decide/adaptation';
import type { ReferenceLanguage } from '../../src/detector/decide/reference';
import {
  adaptationSteps,
  type FitText,
  MAX_ADAPTATION_GRAMS,
  REFERENCE_WEIGHT,
  referenceFitTexts,
} from '../../src/detector/learn/adaptation';
import { documentWeights } from '../../src/detector/learn/documents';
import { ADAPTATION_FOLDS, foldsOf } from '../../src/detector/learn/folds';
import { selectGrams } from '../../src/detector/learn/grams';
import { fitPlatt, runToEnd, sparseSteps, trainSparse } from '../../src/detector/learn/lr';
import { WorkSlices } from '../../src/detector/learn/slices';
import { rng, shuffled } from '../../src/detector/learn/stats';
import { syntheticFitTexts } from '../../scripts/lib/fit-evidence';
import { SUITE_TIMEOUT_MS } from '../timeout';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** SHA-256 of a value as JSON, typed arrays as arrays: the same digest is the same numbers, to the last bit. */
const digest = (v: unknown) =>
  new Bun.CryptoHasher('sha256')
    .update(JSON.stringify(v, (_, x) => (ArrayBuffer.isView(x) ? Array.from(x as unknown as ArrayLike<number>) : x)))
    .digest('hex');

const human = syntheticFitTexts(120, 700, 0, 41);
const ai = syntheticFitTexts(60, 700, 1, 42);

describe('the fit without reference writers', () => {
  it('is the fit of before them, to the last bit (digests made with 81133db)', () => {
    const { referenceLogits, ...result } = runToEnd(adaptationSteps(human, ai));
    expect(referenceLogits).toHaveLength(0);
    expect(digest(result)).toBe('625a8e667091ea851f29187e31575808f728b740018eab53957b240afae1702e');
    const { referenceLogits: none, ...empty } = runToEnd(adaptationSteps(human, ai, { texts: [], weight: REFERENCE_WEIGHT }));
    expect([none.length, digest(empty)]).toEqual([0, digest(result)]);
  });

  it("keeps the trainers' numbers `bun run train` relies on, yields or not (digests made with 81133db)", () => {
    const rand = rng(43);
    const docs = Array.from({ length: 400 }, (_, i) => ({
      feats: Uint32Array.from({ length: 50 }, () => Math.floor(rand() * 4096)),
      y: i % 2,
      weight: 0.5 + rand(),
      lang: (i % 3 === 0 ? 1 : 0) as 0 | 1,
    }));
    const options = { bits: 12, epochs: 4, lr: 0.5, l2: 0, seed: 7 };
    const model = trainSparse(docs, options);
    expect(digest(model)).toBe('86e3c534a4602241fcf8e4abf718cd97e1fa6fc5eb9e9917ab896821658cdb1e');
    // Sliced by work: many yields, the same weights.
    let yields = 0;
    const steps = sparseSteps(docs, { ...options, sliceWork: 1_000 });
    let r = steps.next();
    for (; !r.done; r = steps.next()) yields++;
    expect(yields).toBeGreaterThan(100);
    expect(digest(r.value)).toBe(digest(model));
    const z = Array.from({ length: 300 }, () => rand() * 6 - 3);
    const platt = fitPlatt(
      z,
      z.map((v) => (v + rand() * 2 > 0 ? 1 : 0)),
      z.map(() => rand()),
    );
    expect(digest(platt)).toBe('227a4030be9dc5c0b437bbb6f2ae6ecf3f72cd14d049c893bf25c77c7ef525d5');
  });

  it('weighs the n-grams a sort of them all would: the most frequent MAX_ADAPTATION_GRAMS of those in 5+ texts, ties to the lower', () => {
    const texts = [...syntheticFitTexts(300, 3_000, 0, 5, 0.6), ...syntheticFitTexts(300, 3_000, 1, 6, 0.6)];
    const all = new Uint32Array(texts.reduce((n, t) => n + t.evidence.grams.length, 0));
    let at = 0;
    for (const t of texts) {
      all.set(t.evidence.grams, at);
      at += t.evidence.grams.length;
    }
    all.sort();
    const counted: [number, number][] = [];
    for (let i = 0; i < all.length; ) {
      let j = i + 1;
      while (j < all.length && all[j] === all[i]) j++;
      if (j - i >= MIN_FEATURE_TEXTS) counted.push([all[i], j - i]);
      i = j;
    }
    // The case the cut decides: more candidates than kept.
    expect(counted.length).toBeGreaterThan(MAX_ADAPTATION_GRAMS);
    const expected = counted
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, MAX_ADAPTATION_GRAMS)
      .map(([g]) => g)
      .sort((a, b) => a - b);
    const table = runToEnd(selectGrams(texts, new WorkSlices()));
    expect([...table.grams]).toEqual(expected);
    expect(table.grams.every((g, j) => table.index[g] === j)).toBe(true);
  });
});

describe('the folds', () => {
  const group = (groups: (number | undefined)[]) => (i: number) => groups[i];
  it('deal the shuffled texts round-robin without groups, as before groups', () => {
    const members = Array.from({ length: 37 }, (_, i) => i);
    const fold = foldsOf(37, [{ members, group: () => undefined, space: 0, seed: 3_800 }]);
    const before = new Int32Array(37);
    shuffled(members, 3_800).forEach((i, r) => {
      before[i] = r % ADAPTATION_FOLDS;
    });
    expect([...fold]).toEqual([...before]);
  });

  it("put a group's texts in one fold, across the site's human texts and AI examples, and keep the folds even", () => {
    // 60 human texts in groups of 1-4 (near-copies), 30 AI examples, two of them near-copies of human texts (groups 0 and 1).
    const groups: (number | undefined)[] = [];
    for (let g = 0; groups.length < 60; g++) for (let k = 0; k <= g % 4 && groups.length < 60; k++) groups.push(g);
    for (let i = 0; i < 30; i++) groups.push(i < 2 ? i : undefined);
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);
    const fold = foldsOf(90, [
      { members: range(0, 60), group: group(groups), space: 0, seed: 1 },
      { members: range(60, 90), group: group(groups), space: 0, seed: 2 },
    ]);
    const foldOf = new Map<number, number>();
    groups.forEach((g, i) => {
      if (g === undefined) return;
      if (!foldOf.has(g)) foldOf.set(g, fold[i]);
      expect(fold[i]).toBe(foldOf.get(g)!);
    });
    const sizes = Array.from({ length: ADAPTATION_FOLDS }, (_, k) => fold.filter((f, i) => f === k && i < 60).length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(4);
  });
});

describe('reference writers among the negatives', () => {
  /**
   * The AI examples differ from the site's human texts in two ways: phrases of the generator (POOL_AI)
   * and a register (POOL_REGISTER) that other human writers share (as second-language learners share
   * the plain register of issue 43 with chat models). Two reference populations write in that register,
   * two like the site.
   */
  const POOL_AI = Array.from({ length: 60 }, (_, k) => 4_190_000 + k);
  const POOL_REGISTER = Array.from({ length: 60 }, (_, k) => 4_191_000 + k);
  const drawn = (pool: number[], n: number, rand: () => number) => shuffled(pool, Math.floor(rand() * 1e9)).slice(0, n);
  const withPhrases = (texts: FitText[], pools: number[][], seed: number): FitText[] => {
    const rand = rng(seed);
    return texts.map((t) => {
      const base = t.evidence.grams.filter((g) => g < 4_190_000 || g >= 4_192_000);
      const extra = pools.flatMap((pool) => drawn(pool, 25, rand));
      return { ...t, evidence: { ...t.evidence, grams: Uint32Array.from([...base, ...extra]).sort() } };
    });
  };
  const site = withPhrases(human, [], 70);
  const examples = withPhrases(syntheticFitTexts(60, 700, 0, 42), [POOL_AI, POOL_REGISTER], 71);
  const populations = [
    withPhrases(syntheticFitTexts(40, 700, 0, 61), [POOL_REGISTER], 72),
    withPhrases(syntheticFitTexts(40, 700, 0, 62), [POOL_REGISTER], 73),
    syntheticFitTexts(200, 700, 0, 63),
    syntheticFitTexts(10, 700, 0, 64),
  ];
  const reference: FitText[] = populations.flatMap((texts, p) => texts.map((t) => ({ ...t, group: p })));
  const withReference = runToEnd(adaptationSteps(site, examples, { texts: reference, weight: REFERENCE_WEIGHT }));
  const without = runToEnd(adaptationSteps(site, examples));

  it('weigh REFERENCE_WEIGHT of the site human texts, evenly per population, the two labels as before', () => {
    const w = documentWeights(120, 60, reference, 0.5);
    const sum = (from: number, to: number) => w.subarray(from, to).reduce((a, v) => a + v, 0);
    const n = 120 + 60 + reference.length;
    // Mean weight 1; the human side (site + reference) weighs as much as the AI examples.
    expect(sum(0, n)).toBeCloseTo(n, 6);
    expect(sum(0, 120) + sum(180, n)).toBeCloseTo(sum(120, 180), 6);
    expect(sum(180, n)).toBeCloseTo(0.5 * sum(0, 120), 6);
    // Each population the same share, whatever its size (200 texts or 10).
    let from = 180;
    for (const texts of populations) {
      expect(sum(from, from + texts.length)).toBeCloseTo(sum(180, n) / 4, 6);
      from += texts.length;
    }
  });

  it('teach the fit that writers in the register of the AI examples are human too: their new texts score lower', () => {
    const fresh = withPhrases(syntheticFitTexts(40, 700, 0, 65), [POOL_REGISTER], 74);
    const mean = (xs: ArrayLike<number>) => Array.from(xs).reduce((a, v) => a + v, 0) / xs.length;
    const score = (fit: typeof without.fit, texts: FitText[]) => mean(texts.map((t) => adaptedLogit(fit!, t.logit, t.evidence)));
    expect(withReference.fit).not.toBeNull();
    console.log(
      `the register population: ${score(without.fit, fresh).toFixed(2)} without reference writers, ${score(withReference.fit, fresh).toFixed(2)} with`,
    );
    expect(score(withReference.fit, fresh)).toBeLessThan(score(without.fit, fresh) - 2);
    // Each reference text's cross-fitted logit, in input order: those like the AI examples score lower than a fit without them scores them.
    expect(withReference.referenceLogits).toHaveLength(reference.length);
    expect(withReference.referenceLogits.every(Number.isFinite)).toBe(true);
    expect(mean(withReference.referenceLogits.subarray(0, 80))).toBeLessThan(score(without.fit, reference.slice(0, 80)));
    // The site's texts still separate (on the generator's phrases), and the model's AUROC is the site's alone.
    expect(withReference.auroc.adapted).toBeGreaterThan(0.9);
    expect(withReference.auroc.model).toBe(without.auroc.model);
  });

  it("never weigh an n-gram of fewer than 5 of the site's texts, however many reference texts have it", () => {
    const markers = [4_194_001, 4_194_002, 4_194_003, 4_194_004, 4_194_005, 4_194_006];
    const control = [4_194_101, 4_194_102, 4_194_103];
    const strip = (t: FitText) => t.evidence.grams.filter((g) => !markers.includes(g) && !control.includes(g));
    const withGrams = (t: FitText, extra: number[]): FitText => ({
      ...t,
      evidence: { ...t.evidence, grams: Uint32Array.from([...strip(t), ...extra]).sort() },
    });
    // Markers in 4 site texts and every reference text; the control in 5 site texts and every reference text.
    const marked = site.map((t, i) => withGrams(t, [...(i < 4 ? markers : []), ...(i < 5 ? control : [])]));
    const ref = reference.map((t) => withGrams(t, [...markers, ...control]));
    const r = runToEnd(adaptationSteps(marked, examples, { texts: ref, weight: REFERENCE_WEIGHT }));
    const weighted = new Set(r.fit!.grams);
    expect(markers.filter((g) => weighted.has(g))).toEqual([]);
    // The test can fail: an n-gram of 5 site texts that every reference text has is weighted.
    expect(control.filter((g) => weighted.has(g))).toEqual(control);
  });

  it("read a reference language's texts with their population as group", () => {
    const language = {
      populations: [
        { id: 'en:a', label: 'a' },
        { id: 'en:b', label: 'b' },
      ],
      texts: [human[0], human[1], human[2]].map((t, i) => ({
        logit: t.logit,
        probability: 0.5,
        words: 300,
        docType: 'essay',
        population: i % 2,
        evidence: t.evidence,
      })),
    } as ReferenceLanguage;
    expect(referenceFitTexts(language)).toEqual(
      [0, 1, 0].map((p, i) => ({ logit: human[i].logit, evidence: human[i].evidence, group: p })),
    );
  });
});
