/**
 * Calibration conditional on length: a short text carries less evidence, so its probability comes
 * from held-out texts of its own length and language; the verdict thresholds are the language's one
 * held-out logit per mode, stored as that cell's probability of it (scripts/lib/calibrate.ts fits
 * them; the model card has the numbers per cell).
 */
import { SENSITIVITIES, type Sensitivity } from '../../contract';
import { sigmoid } from './logistic';

/**
 * Lower bounds, in words, of the length buckets: [20, 40), [40, 80), [80, 150), [150, 300), 300+.
 * A text under 20 words (the CLI scores them; the API refuses them) uses the first bucket.
 */
export const LENGTH_BUCKETS = [20, 40, 80, 150, 300] as const;

/** Index of the length bucket of a text of `words` words. */
export function lengthBucket(words: number): number {
  let b = 0;
  while (b + 1 < LENGTH_BUCKETS.length && words >= LENGTH_BUCKETS[b + 1]) b++;
  return b;
}

/** p = sigmoid(a * logit + b). */
export interface Platt {
  a: number;
  b: number;
}

/** The calibrated probability of `logit` under `platt`: the one Platt formula of the detector. */
export function plattProbability(platt: Platt, logit: number): number {
  return sigmoid(platt.a * logit + platt.b);
}

/** One (language, length bucket) cell. */
export interface CellCalibration {
  platt: Platt;
  /** Smallest calibrated probability flagged as AI at each mode (the mode's false-positive promise, held out). */
  thresholds: Record<Sensitivity, number>;
  /** False where the cell catches too little AI text at that mode to give an AI verdict: `inconclusive` instead. */
  conclusive: Record<Sensitivity, boolean>;
  /** Share of held-out AI texts of the cell at or above the threshold (for the model card and the verdict's bullet). */
  heldOutTpr: Record<Sensitivity, number>;
  /** Held-out texts the cell was fitted on. */
  texts: { human: number; ai: number };
}

/** Where each cell's own Platt scaling holds in full: the geometric middle of its bucket (the open last bucket: 420 words). */
export const CELL_MIDDLES: readonly number[] = LENGTH_BUCKETS.map((lo, b) =>
  b + 1 < LENGTH_BUCKETS.length ? Math.sqrt(lo * LENGTH_BUCKETS[b + 1]) : lo * 1.4,
);

/**
 * The calibration of a `words`-word text: its cell, with the Platt scaling blended by log length
 * between the middles of the two nearest cells, so that a few words more or less never jump the
 * score (a 306-word text cut to 299 words moved 53 points between two Spanish cells). The mode
 * thresholds follow from the language's threshold logits (`thresholdLogits`), so the verdict is
 * still "the logit reaches the language's threshold"; whether the mode may call AI stays the cell's.
 */
export function cellFor(cells: readonly CellCalibration[], words: number, thresholdLogits: Record<Sensitivity, number>): CellCalibration {
  const own = cells[Math.min(cells.length - 1, lengthBucket(words))];
  if (cells.length < 2) return own;
  let k = 0;
  while (k + 2 < cells.length && words >= CELL_MIDDLES[k + 1]) k++;
  const w = Math.log(Math.max(words, 1));
  const t = Math.min(1, Math.max(0, (w - Math.log(CELL_MIDDLES[k])) / (Math.log(CELL_MIDDLES[k + 1]) - Math.log(CELL_MIDDLES[k]))));
  const [p, q] = [cells[k].platt, cells[k + 1].platt];
  const platt = { a: p.a + t * (q.a - p.a), b: p.b + t * (q.b - p.b) };
  const thresholds = {} as Record<Sensitivity, number>;
  for (const mode of SENSITIVITIES) thresholds[mode] = plattProbability(platt, thresholdLogits[mode]);
  return { ...own, platt, thresholds };
}

/**
 * The measured error beside a verdict: the share of held-out human texts of one kind (language,
 * document type, length bucket) that each mode flagged, each family flagged by thresholds it did
 * not set (scripts/lib/measured-error.ts). Keys are `<docType>|<bucket>`, with `*` for "any".
 */
export interface MeasuredRate {
  /** Held-out human texts of the group. */
  texts: number;
  /** Share of them flagged (an AI-side verdict) at each mode, 0 to 1. */
  flagged: Record<Sensitivity, number>;
  /**
   * What a kind of text from a source never trained on may see at each mode, 0 to 1: the worst
   * family of the group, with the exact binomial bound for its number of texts (never 0), and never
   * under the pooled rate's own bound (scripts/lib/measured-error.ts familyUpperBound).
   */
  upperBound: Record<Sensitivity, number>;
}
export type ErrorTable = Record<string, MeasuredRate>;

/** A group needs this many held-out human texts before its rate is shown rather than a broader group's. */
export const MIN_RATE_TEXTS = 100;

/** The key of a group of the error table: a document type (or `*`) and a length bucket (or `*`). */
export const errorKey = (docType: string, bucket: number | '*'): string => `${docType}|${bucket}`;
