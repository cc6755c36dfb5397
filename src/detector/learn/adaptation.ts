/**
 * Fitting a profile's adaptation (issue 38; what is fitted and how it is applied: ../decide/adaptation.ts).
 * From one language's human texts (label 0) and the operator's AI examples (label 1): a logistic
 * regression over the n-grams seen in MIN_FEATURE_TEXTS+ of those texts, their style measures and the
 * model's logit (lr.ts sparseSteps, L2, AdaGrad, seeded), fitted on ADAPTATION_FOLDS folds so that
 * every text gets a score from a fit that never saw it (scikit-learn's cross_val_predict), then the
 * fold fits averaged into the one applied to new texts. A Platt scaling of the cross-fitted scores
 * (both labels weighed equally) puts the adapted logit at even odds and is folded into the fit.
 */
import { ADAPTATION_STYLE, type AdaptationEvidence, type AdaptationFit, MIN_FEATURE_TEXTS } from '../decide/adaptation';
import { documentLogit, fitPlatt, type SparseDoc, type SparseModel, sparseSteps } from './lr';
import { auroc, shuffled } from './stats';

/** Folds of the cross-fit: each text is scored by a fit trained on the other four fifths. */
export const ADAPTATION_FOLDS = 5;
/** The seed of the folds and of each fold's shuffles: the same texts in the same order give the same profile. */
export const ADAPTATION_SEED = 3_800;
/**
 * AdaGrad settings, chosen on held-out source families (`bun run eval --calibration --adapt`,
 * docs/calibration.md "Adapting to your generators"): the pooled catch at balanced, adapted minus
 * calibration-only, with 50 / 100 examples: 8 passes and L2 1e-4, +6.0 / +8.2 points; L2 1e-3, +6.4 /
 * +9.4; 16 passes and L2 3e-3, +8.9 / +11.9; 32 passes, +9.6 / +12.4; 64 passes, +10.2 / +12.2 (step 0.6
 * instead of 0.3, or L2 1e-2, no better). The held-back human texts stayed within the promise in every
 * setting. 64 passes fit 2,500 texts in 6.6 s here (32: 3.8 s), in slices.
 */
export const ADAPTATION_OPTIONS = { epochs: 64, lr: 0.3, l2: 3e-3 } as const;
/** Under this cross-validated AUROC the AI examples cannot be told from the human texts: not applied. */
export const MIN_SEPARATION_AUROC = 0.6;
/** Most weighted n-grams (the most frequent first): bounds a profile's size (~20 bytes each as JSON). */
export const MAX_ADAPTATION_GRAMS = 60_000;
/** Documents between two yields of the fit (the API serves other requests between slices): ~10 ms of work. */
const YIELD_EVERY = 500;

/** A text the fit reads: the model's logit, the evidence, the label. */
export interface FitText {
  logit: number;
  evidence: AdaptationEvidence;
}

/** What the cross-fit found. */
export interface AdaptationResult {
  /** The fit to apply, or null: `not_separable` (whether it gains anything is the profile's to judge, per mode). */
  fit: AdaptationFit | null;
  /** Each text's adapted logit from a fit that never saw it (after the Platt scaling), in input order. */
  humanLogits: Float64Array;
  aiLogits: Float64Array;
  auroc: { adapted: number; model: number };
}

/**
 * The weighted n-grams: those in MIN_FEATURE_TEXTS+ texts, the MAX_ADAPTATION_GRAMS most frequent (ties:
 * the lower index), ascending. Counted by sorting all the texts' (distinct) n-grams and reading runs: a
 * Map of a million entries took 3.2 s here (2,500 texts), the sort 0.1 s.
 */
export function selectGrams(texts: readonly FitText[]): Uint32Array {
  let total = 0;
  for (const t of texts) total += t.evidence.grams.length;
  const all = new Uint32Array(total);
  let at = 0;
  for (const t of texts) {
    all.set(t.evidence.grams, at);
    at += t.evidence.grams.length;
  }
  all.sort();
  const grams: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < all.length; ) {
    let j = i + 1;
    while (j < all.length && all[j] === all[i]) j++;
    if (j - i >= MIN_FEATURE_TEXTS) {
      grams.push(all[i]);
      counts.push(j - i);
    }
    i = j;
  }
  if (grams.length <= MAX_ADAPTATION_GRAMS) return Uint32Array.from(grams);
  const order = grams.map((_, k) => k).sort((a, b) => counts[b] - counts[a] || grams[a] - grams[b]);
  return Uint32Array.from(order.slice(0, MAX_ADAPTATION_GRAMS), (k) => grams[k]).sort();
}

/** The mean and scale of each style measure over the texts (NaN values left out; a constant measure gets scale 1). */
function styleScaling(texts: readonly FitText[]): { mean: number[]; scale: number[] } {
  const mean: number[] = [];
  const scale: number[] = [];
  for (let k = 0; k < ADAPTATION_STYLE.length; k++) {
    const xs = texts.map((t) => t.evidence.style[k]).filter(Number.isFinite);
    const m = xs.length ? xs.reduce((a, v) => a + v, 0) / xs.length : 0;
    const sd = xs.length ? Math.sqrt(xs.reduce((a, v) => a + (v - m) * (v - m), 0) / xs.length) : 0;
    mean.push(m);
    scale.push(sd > 1e-12 ? sd : 1);
  }
  return { mean, scale };
}

/** Binary search of `g` in the ascending `grams`; -1 when absent. */
function indexOf(grams: Uint32Array, g: number): number {
  let lo = 0;
  let hi = grams.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (grams[mid] < g) lo = mid + 1;
    else if (grams[mid] > g) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** The training documents: kept n-grams as compact indexes, the model's logit as offset, standardised style. Yields every YIELD_EVERY documents. */
function* documents(
  texts: readonly FitText[],
  labels: readonly (0 | 1)[],
  grams: Uint32Array,
  style: { mean: number[]; scale: number[] },
): Generator<void, SparseDoc[]> {
  const counts = [0, 0];
  for (const y of labels) counts[y]++;
  const docs: SparseDoc[] = [];
  for (let i = 0; i < texts.length; i++) {
    if (i > 0 && i % YIELD_EVERY === 0) yield;
    const t = texts[i];
    const feats: number[] = [];
    for (const g of t.evidence.grams) {
      const j = indexOf(grams, g);
      if (j >= 0) feats.push(j);
    }
    const dense = Float64Array.from(ADAPTATION_STYLE, (_, k) => {
      const v = t.evidence.style[k];
      return Number.isFinite(v) ? (v - style.mean[k]) / style.scale[k] : 0;
    });
    const y = labels[i];
    // Both labels weigh the same in all: the fit's even odds are the profile's, whatever its mix.
    docs.push({
      feats: Uint32Array.from(feats),
      grams: t.evidence.grams.length,
      offset: t.logit,
      dense,
      y,
      weight: labels.length / (2 * counts[y]),
      lang: 0,
    });
  }
  return docs;
}

/** Each text's fold: humans and AI examples each shuffled (seeded) and dealt round-robin, so every fold has both labels. */
function foldsOf(labels: readonly (0 | 1)[]): Int32Array {
  const fold = new Int32Array(labels.length);
  for (const y of [0, 1] as const) {
    const members = labels.flatMap((l, i) => (l === y ? [i] : []));
    shuffled(members, ADAPTATION_SEED + y).forEach((i, r) => {
      fold[i] = r % ADAPTATION_FOLDS;
    });
  }
  return fold;
}

/**
 * The cross-fitted adaptation of one language. A generator: it yields between slices of the fit
 * (lr.ts runToEnd runs it in one go). Needs both labels (the caller checks MIN_AI_TEXTS).
 */
export function* adaptationSteps(human: readonly FitText[], ai: readonly FitText[]): Generator<void, AdaptationResult> {
  const texts = [...human, ...ai];
  const labels: (0 | 1)[] = texts.map((_, i) => (i < human.length ? 0 : 1));
  const grams = selectGrams(texts);
  yield;
  const style = styleScaling(texts);
  const docs = yield* documents(texts, labels, grams, style);
  const fold = foldsOf(labels);
  let bits = 4;
  while (1 << bits < grams.length) bits++;
  const raw = new Float64Array(texts.length);
  const fits: SparseModel[] = [];
  for (let k = 0; k < ADAPTATION_FOLDS; k++) {
    const train = docs.filter((_, i) => fold[i] !== k);
    const fit = yield* sparseSteps(train, {
      ...ADAPTATION_OPTIONS,
      bits,
      seed: ADAPTATION_SEED + 10 + k,
      denseInputs: ADAPTATION_STYLE.length,
      yieldEvery: YIELD_EVERY,
    });
    fits.push(fit);
    docs.forEach((d, i) => {
      if (fold[i] === k) raw[i] = documentLogit(fit, d);
    });
    yield;
  }
  // Even odds on the profile's own texts: a Platt scaling of the cross-fitted scores, both labels weighed equally.
  const { a, b } = fitPlatt(
    [...raw],
    labels,
    docs.map((d) => d.weight),
  );
  const scaled = raw.map((z) => a * z + b);
  const humanLogits = scaled.slice(0, human.length);
  const aiLogits = scaled.slice(human.length);
  const separation = {
    adapted: auroc([...aiLogits], [...humanLogits]),
    model: auroc(
      ai.map((t) => t.logit),
      human.map((t) => t.logit),
    ),
  };
  return {
    fit: separation.adapted < MIN_SEPARATION_AUROC ? null : averaged(fits, grams, style, a, b),
    humanLogits,
    aiLogits,
    auroc: { adapted: round4(separation.adapted), model: round4(separation.model) },
  };
}

const round4 = (v: number) => Math.round(v * 1e4) / 1e4;
/** Six significant digits: a profile stays readable and small; the applied logit moves by under 1e-5. */
const significant = (v: number) => Number(v.toPrecision(6));

/** The fold fits averaged, with the Platt scaling (a, b) folded in: the fit applied to new texts. */
function averaged(
  fits: readonly SparseModel[],
  grams: Uint32Array,
  style: { mean: number[]; scale: number[] },
  a: number,
  b: number,
): AdaptationFit {
  const n = fits.length;
  const mean = (pick: (f: SparseModel) => number) => fits.reduce((s, f) => s + pick(f), 0) / n;
  const keptGrams: number[] = [];
  const weights: number[] = [];
  grams.forEach((g, j) => {
    const w = significant(a * mean((f) => f.w[j]));
    if (w !== 0) {
      keptGrams.push(g);
      weights.push(w);
    }
  });
  return {
    grams: keptGrams,
    weights,
    style: {
      mean: style.mean.map(significant),
      scale: style.scale.map(significant),
      weights: ADAPTATION_STYLE.map((_, k) => significant(a * mean((f) => f.dense[k]))),
    },
    logitWeight: significant(a * mean((f) => f.offsetWeight)),
    bias: significant(a * mean((f) => f.bias[0]) + b),
  };
}
