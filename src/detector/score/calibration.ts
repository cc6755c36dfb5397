/**
 * Calibration conditional on length: a short text carries less evidence, so its probability comes
 * from held-out texts of its own length and language; the verdict thresholds are the language's one
 * held-out logit per mode, stored as that cell's probability of it (scripts/lib/calibrate.ts fits
 * them; the model card has the numbers per cell).
 */
import type { Sensitivity } from '../../contract';

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

/** The cell of a text, clamped to the buckets the model has. */
export function cellFor(cells: readonly CellCalibration[], words: number): CellCalibration {
  return cells[Math.min(cells.length - 1, lengthBucket(words))];
}
