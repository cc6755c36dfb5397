/**
 * Site adaptation (issue 38): what a calibration profile learned from the operator's own AI examples
 * beside its human texts, and applying it to one text.
 *
 * THE CONTRACT (agreed before the work was split; change it only in one commit that updates every caller):
 * - The fit (src/detector/learn/adaptation.ts) only re-weighs evidence the core already emits for every
 *   text: its distinct hashed n-grams (the global model's features, score/engine.ts `feats`) and its style
 *   measures (score/style.ts), with the global model's logit as one input. Nothing here scores anew.
 * - Only n-grams seen in MIN_FEATURE_TEXTS or more different texts of the profile carry a weight: no
 *   phrase of one text can be learned (docs/calibration.md, "Privacy").
 * - The adapted logit is calibrated at even odds on the profile's own texts (a Platt scaling of the
 *   cross-fitted logits is folded into the fit): its probability is sigmoid(logit), and its bars are set
 *   by threshold-rule.ts on the human texts' cross-fitted logits (a fit that never saw the text), so a
 *   mode's promise and its 95% bound hold as for a calibration-only profile.
 * - Applying it is pure and cheap: one table lookup per distinct n-gram of the text (a table built once
 *   per fit), plus the style terms.
 */
import type { Sensitivity } from '../../contract';
import type { DocType } from '../score/doctype';
import type { EngineResult } from '../score/engine';
import { sigmoid } from '../score/logistic';
import { anchorSentences } from '../score/segments';
import type { StyleFeatures } from '../score/style';
import type { ProfileModeThreshold } from './threshold-rule';

/** An n-gram gets a weight only when this many different texts of the profile have it (the privacy rule). */
export const MIN_FEATURE_TEXTS = 5;

/**
 * The style measures an adaptation weighs (score/style.ts), in this order. Standardised on the
 * profile's texts; a measure a text has none of (NaN: too few sentences) reads as the profile's mean.
 */
export const ADAPTATION_STYLE = [
  'sentenceCV',
  'meanSentenceWords',
  'paragraphCV',
  'transitionRate',
  'openingTransitionShare',
  'stockRate',
  'hedgeRate',
  'personalRate',
  'contractionRate',
  'informalRate',
  'numberRate',
  'properRate',
  'commonWordShare',
  'longWordShare',
  'meanWordLength',
  'commasPerSentence',
  'dashRate',
  'questionExclaimRate',
  'semicolonColonRate',
  'allCapsRate',
  'openingRepeatShare',
  'markdownPerParagraph',
  'lexicalDiversity',
] as const satisfies readonly (keyof StyleFeatures)[];

/** What an adaptation reads of a scored text besides its logit: never kept, never stored. */
export interface AdaptationEvidence {
  /** The text's distinct hashed n-gram indexes (what the core emits). */
  grams: Uint32Array;
  /** ADAPTATION_STYLE, in order. */
  style: Float64Array;
}

/** The evidence of a text scored with its n-grams emitted, or null when they were not. */
export function evidenceOf(r: Pick<EngineResult, 'feats' | 'style'>): AdaptationEvidence | null {
  if (!r.feats) return null;
  return { grams: r.feats, style: Float64Array.from(ADAPTATION_STYLE, (k) => r.style[k]) };
}

/**
 * The learned adaptation: logit = bias + logitWeight * modelLogit + sum(weights of the text's n-grams) /
 * sqrt(distinct n-grams) + sum(style weights * standardised style). Data inside the profile.
 */
export interface AdaptationFit {
  /** Weighted n-gram indexes, ascending, each seen in MIN_FEATURE_TEXTS+ texts of the profile. */
  grams: number[];
  /** The weight of each of `grams`. */
  weights: number[];
  style: { mean: number[]; scale: number[]; weights: number[] };
  logitWeight: number;
  bias: number;
}

/** One mode of an adaptation: the bar on the adapted logit (threshold-rule.ts over the human texts' cross-fitted logits) and what it catches. */
export interface AdaptationMode extends ProfileModeThreshold {
  /** The AI examples the bar catches, cross-fitted (each scored by a fit that never saw it), and their share. */
  caught: number;
  catchRate: number;
  /** The same examples caught by the model's own score with the profile's calibration-only bar (`modes`): what adapting added. */
  modelCaught: number;
  modelCatchRate: number;
  /**
   * Set when this mode falls back to calibration-only (issue 43 item 4): `fewer_caught`, its guarded
   * adapted bar caught fewer of the examples (cross-validated) than the guarded calibration-only bar
   * (`caught` < `modelCaught`). Its `thresholdLogit` (and `thresholdScore`) is then null, and a
   * detection at this mode decides on the model's score with the calibration-only bar; the other
   * figures are those of the adapted bar it gave up. Absent: the mode decides adapted.
   */
  fallback?: (typeof FALLBACK_REASONS)[number];
}

/** Why an adapted mode falls back to calibration-only. */
export const FALLBACK_REASONS = ['fewer_caught'] as const;

/** A language's adaptation (`languages.<lang>.adaptation`). */
export interface Adaptation {
  /** AI examples of the language it was fitted on (distinct, 20+ words). */
  aiTexts: number;
  /** How many of them the document-type classifier puts in each type. */
  docTypes: Partial<Record<DocType, number>>;
  /** Cross-validated AUROC of the AI examples against the human texts: adapted, and the model alone. */
  auroc: { adapted: number; model: number };
  /** N-grams that carry a weight. */
  features: number;
  modes: Record<Sensitivity, AdaptationMode>;
  fit: AdaptationFit;
}

/** Why a language of a profile was not adapted. */
export const NOT_ADAPTED_REASONS = [
  /** No AI example of the language. */
  'no_ai_texts',
  /** Fewer than MIN_AI_TEXTS. */
  'too_few_ai_texts',
  /** The examples cannot be told from the human texts (cross-validated AUROC under MIN_SEPARATION_AUROC). */
  'not_separable',
  /**
   * Adapting caught no more of the examples, cross-validated, than the model's own score with the
   * calibration-only bars; with reference writers (guarded bars), under MIN_GUARDED_GAIN more at every
   * mode, and under it before the guard too (decide/guard-load.ts).
   */
  'no_gain',
  /**
   * The guard undid what the examples taught (issue 43 item 4): unguarded, adapting caught at least
   * MIN_GUARDED_GAIN of the examples more than calibration-only at some mode, but once every bar is
   * guarded on reference writers (./guard.ts) no mode does (./guard-load.ts guardLanguage): what
   * separated the examples from the human texts is what other human writers write too. Mislabelled
   * human texts given as AI examples end here.
   */
  'examples_look_human',
] as const;
export type NotAdaptedReason = (typeof NOT_ADAPTED_REASONS)[number];

/** A language that was not adapted (`languages.<lang>.notAdapted`): why, and what was measured. */
export interface NotAdapted {
  reason: NotAdaptedReason;
  aiTexts: number;
  /** The AI examples a language needs (MIN_AI_TEXTS). */
  minAiTexts: number;
  /** Cross-validated AUROC when a fit was tried, else null. */
  auroc: { adapted: number; model: number } | null;
}

/** A fit's n-gram weights in an open-addressing table (keys + 1, 0 = empty): one lookup per n-gram. */
interface GramTable {
  keys: Uint32Array;
  values: Float32Array;
  mask: number;
}

const tables = new WeakMap<AdaptationFit, GramTable>();

/** Multiplicative hashing of an index into the table. */
const slot = (key: number, mask: number) => (Math.imul(key, 0x9e3779b1) >>> 0) & mask;

function tableOf(fit: AdaptationFit): GramTable {
  const cached = tables.get(fit);
  if (cached) return cached;
  let size = 16;
  while (size < fit.grams.length * 2) size <<= 1;
  const table = { keys: new Uint32Array(size), values: new Float32Array(size), mask: size - 1 };
  fit.grams.forEach((g, i) => {
    let s = slot(g, table.mask);
    while (table.keys[s] !== 0) s = (s + 1) & table.mask;
    table.keys[s] = g + 1;
    table.values[s] = fit.weights[i];
  });
  tables.set(fit, table);
  return table;
}

/** The adapted logit of a text from the model's logit and its evidence. */
export function adaptedLogit(fit: AdaptationFit, modelLogit: number, evidence: AdaptationEvidence): number {
  const table = tableOf(fit);
  const { grams } = evidence;
  let sum = 0;
  for (let k = 0; k < grams.length; k++) {
    const key = grams[k] + 1;
    let s = slot(grams[k], table.mask);
    for (;;) {
      const at = table.keys[s];
      if (at === key) {
        sum += table.values[s];
        break;
      }
      if (at === 0) break;
      s = (s + 1) & table.mask;
    }
  }
  let z = fit.bias + fit.logitWeight * modelLogit + (grams.length ? sum / Math.sqrt(grams.length) : 0);
  const { mean, scale, weights } = fit.style;
  for (let k = 0; k < weights.length; k++) {
    const v = evidence.style[k];
    if (Number.isFinite(v)) z += (weights[k] * (v - mean[k])) / scale[k];
  }
  return z;
}

/** The probability of an adapted logit (calibrated at even odds on the profile's texts). */
export const adaptedProbability = sigmoid;

/** Adapted readings made, by the decision's `adapted` record: explain() and analyze() read the same one, made once. */
const readings = new WeakMap<object, { of: EngineResult; read: EngineResult }>();

/** The score as a decision reads it: the adapted reading when a profile's adaptation decided, else the model's own. */
export function decisionReading(r: EngineResult, decision: { adapted: { probability: number } | null }): EngineResult {
  const { adapted } = decision;
  if (!adapted) return r;
  const made = readings.get(adapted);
  if (made?.of === r) return made.read;
  const read = adaptedReading(r, adapted.probability);
  readings.set(adapted, { of: r, read });
  return read;
}

/**
 * The score as an adapted decision reads it: the document's probability and score are the adapted
 * ones; a text read as one passage is that passage, so its passage score is the document's, its label
 * the side of even odds that score is on (with the AI share it implies), and its sentence scores are
 * shifted together to average to it (as without a profile); the passages of a text of several passages
 * stay the model's reading (an adaptation reads whole texts, not passages).
 */
export function adaptedReading(r: EngineResult, probability: number): EngineResult {
  if (r.segments.length !== 1) return { ...r, probability, score: Math.round(probability * 100) };
  const score = Math.round(probability * 100);
  const label = probability >= 0.5 ? 'ai' : 'human';
  return {
    ...r,
    probability,
    score,
    segments: [{ ...r.segments[0], score, label }],
    aiShare: label === 'ai' ? 1 : 0,
    sentenceScores: anchorSentences(r.sentenceScores, probability),
  };
}
