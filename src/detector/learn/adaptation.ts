/**
 * Fitting a profile's adaptation (issue 38; what is fitted and how it is applied: ../decide/adaptation.ts).
 * From one language's human texts (label 0) and the operator's AI examples (label 1): a logistic
 * regression over the n-grams seen in MIN_FEATURE_TEXTS+ of those texts, their style measures and the
 * model's logit (lr.ts sparseSteps, L2, AdaGrad, seeded), fitted on ADAPTATION_FOLDS folds so that
 * every text gets a score from a fit that never saw it (scikit-learn's cross_val_predict), then the
 * fold fits averaged into the one applied to new texts. A Platt scaling of the cross-fitted scores
 * (both labels weighed equally) puts the adapted logit at even odds and is folded into the fit.
 *
 * Reference human writers (issue 43 item 2, ../decide/reference.ts) join the negatives: the fit learns
 * what separates AI text from human writing in general, emphasised toward the site, not what separates
 * this archive from anything else. They weigh REFERENCE_WEIGHT times the site's human texts, spread
 * evenly over their populations; each population is one group of the folds (./folds.ts), so each
 * reference text is scored by a fit that never saw its population. What stays the site's alone: the
 * n-grams weighed (the privacy rule counts only its texts), the style standardisation, the Platt
 * scaling and the AUROCs (even odds on the operator's texts).
 *
 * In slices of work, not of texts (./slices.ts, issue 44 item 3): no step reads more than about
 * WORK_PER_SLICE n-grams, whatever the texts' sizes.
 */
import { ADAPTATION_STYLE, type AdaptationFit } from '../decide/adaptation';
import type { ReferenceLanguage } from '../decide/reference';
import { documents, documentWeights, styleScaling } from './documents';
import type { FitText } from './fit-text';
import { ADAPTATION_FOLDS, foldsOf } from './folds';
import { selectGrams } from './grams';
import { DOC_WORK, documentLogit, plattSteps, type SparseModel, sparseSteps } from './lr';
import { WorkSlices } from './slices';
import { auroc } from './stats';

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
export type { FitText } from './fit-text';
export { ADAPTATION_FOLDS } from './folds';
export { MAX_ADAPTATION_GRAMS } from './grams';
/**
 * What the reference writers weigh together, as a share of the site's own human texts (issue 43 item
 * 2): as much as them, spread over ~20 populations of ~150 texts, so each of the site's texts still
 * weighs ~20x one reference text. Chosen by `bun run eval --calibration --adapt --shift` held out by
 * family (docs/calibration.md "Writers outside your texts"; 2 splits, 100 examples): other families'
 * human texts flagged 2.2 / 3.4 / 6.1% at 0.5 and 2.1 / 3.3 / 5.9% at 1 (none: 3.9 / 6.8 / 11.7%),
 * the gain at balanced over calibration-only +9.6 and +9.5 points; 1 also flags the tokenised
 * archive's and the learners' cases least. The eval passes other values through `ReferenceNegatives.weight`.
 */
export const REFERENCE_WEIGHT = 1;

/** Reference human writers the fit reads as extra negatives (issue 43 item 2). */
export interface ReferenceNegatives {
  /** Their texts, each with its population as `group` (referenceFitTexts). */
  texts: readonly FitText[];
  /** What they weigh together, as a share of the site's human texts' weight: REFERENCE_WEIGHT, or the eval's. */
  weight: number;
}

/** What the cross-fit found. */
export interface AdaptationResult {
  /** The fit to apply, or null: `not_separable` (whether it gains anything is the profile's to judge, per mode). */
  fit: AdaptationFit | null;
  /** Each text's adapted logit from a fit that never saw it (after the Platt scaling), in input order. */
  humanLogits: Float64Array;
  aiLogits: Float64Array;
  /** Each reference text's adapted logit from a fit that never saw its population (after the Platt scaling), in input order; empty without. */
  referenceLogits: Float64Array;
  /** On the site's texts only. */
  auroc: { adapted: number; model: number };
}

/** A language's reference writers as the fit reads them: each text's population is its group. */
export function referenceFitTexts(language: ReferenceLanguage): FitText[] {
  return language.texts.map((t) => ({ logit: t.logit, evidence: t.evidence, group: t.population }));
}

/**
 * The cross-fitted adaptation of one language. A generator: it yields between slices of the fit
 * (lr.ts runToEnd runs it in one go). Needs both labels (the caller checks MIN_AI_TEXTS). With
 * `reference` (absent or empty: the fit of the site's texts alone, as before reference writers).
 */
export function* adaptationSteps(
  human: readonly FitText[],
  ai: readonly FitText[],
  reference?: ReferenceNegatives,
): Generator<void, AdaptationResult> {
  const slices = new WorkSlices();
  const others = reference?.texts ?? [];
  const site = [...human, ...ai];
  const texts = others.length ? [...site, ...others] : site;
  const labels = new Uint8Array(texts.length);
  labels.fill(1, human.length, site.length);
  const table = yield* selectGrams(site, slices);
  const style = yield* styleScaling(site, slices);
  const weights = documentWeights(human.length, ai.length, others, reference?.weight ?? 0);
  const docs = yield* documents(texts, labels, weights, table, style, slices);
  const group = (i: number) => texts[i].group;
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);
  const fold = foldsOf(texts.length, [
    { members: range(0, human.length), group, space: 0, seed: ADAPTATION_SEED },
    { members: range(human.length, site.length), group, space: 0, seed: ADAPTATION_SEED + 1 },
    { members: range(site.length, texts.length), group, space: 1, seed: ADAPTATION_SEED + 2 },
  ]);
  let bits = 4;
  while (1 << bits < table.grams.length) bits++;
  const raw = new Float64Array(texts.length);
  const fits: SparseModel[] = [];
  for (let k = 0; k < ADAPTATION_FOLDS; k++) {
    const train = docs.filter((_, i) => fold[i] !== k);
    const fit = yield* sparseSteps(train, {
      ...ADAPTATION_OPTIONS,
      bits,
      seed: ADAPTATION_SEED + 10 + k,
      denseInputs: ADAPTATION_STYLE.length,
      sliceWork: slices.per,
    });
    fits.push(fit);
    for (let i = 0; i < docs.length; i++) {
      if (fold[i] === k) raw[i] = documentLogit(fit, docs[i]);
      if (slices.spent(docs[i].feats.length + DOC_WORK)) yield;
    }
    yield;
  }
  // Even odds on the profile's own texts: a Platt scaling of the site's cross-fitted scores, both labels weighed equally.
  const siteLabels = [...labels.subarray(0, site.length)];
  const siteWeights = siteLabels.map((y) => site.length / (2 * (y ? ai.length : human.length)));
  const { a, b } = yield* plattSteps([...raw.subarray(0, site.length)], siteLabels, siteWeights, slices.per);
  const scaled = raw.map((z) => a * z + b);
  const humanLogits = scaled.slice(0, human.length);
  const aiLogits = scaled.slice(human.length, site.length);
  const separation = {
    adapted: auroc([...aiLogits], [...humanLogits]),
    model: auroc(
      ai.map((t) => t.logit),
      human.map((t) => t.logit),
    ),
  };
  yield;
  return {
    fit: separation.adapted < MIN_SEPARATION_AUROC ? null : yield* averaged(fits, table.grams, style, a, b),
    humanLogits,
    aiLogits,
    referenceLogits: scaled.slice(site.length),
    auroc: { adapted: round4(separation.adapted), model: round4(separation.model) },
  };
}

const round4 = (v: number) => Math.round(v * 1e4) / 1e4;
/** Six significant digits: a profile stays readable and small; the applied logit moves by under 1e-5. */
const significant = (v: number) => Number(v.toPrecision(6));

/** The fold fits averaged, with the Platt scaling (a, b) folded in: the fit applied to new texts. */
function* averaged(
  fits: readonly SparseModel[],
  grams: Uint32Array,
  style: { mean: number[]; scale: number[] },
  a: number,
  b: number,
): Generator<void, AdaptationFit> {
  const n = fits.length;
  const mean = (pick: (f: SparseModel) => number) => fits.reduce((s, f) => s + pick(f), 0) / n;
  const keptGrams: number[] = [];
  const weights: number[] = [];
  for (let from = 0; from < grams.length; from += AVERAGED_PER_STEP) {
    averagedRange(fits, grams, a, from, Math.min(grams.length, from + AVERAGED_PER_STEP), keptGrams, weights);
    yield;
  }
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

/** N-gram weights averaged in one step: ~1 ms (six significant digits are a string's round trip: 60,000 took 54 ms). */
const AVERAGED_PER_STEP = 1_024;

/** The averaged weights of n-grams [from, to), with the Platt slope, appended where not 0. */
function averagedRange(
  fits: readonly SparseModel[],
  grams: Uint32Array,
  a: number,
  from: number,
  to: number,
  keptGrams: number[],
  weights: number[],
): void {
  const n = fits.length;
  for (let j = from; j < to; j++) {
    const w = significant(a * (fits.reduce((s, f) => s + f.w[j], 0) / n));
    if (w !== 0) {
      keptGrams.push(grams[j]);
      weights.push(w);
    }
  }
}
