/**
 * Deciding, kept apart from scoring: the calibrated probability p does not depend on the mode; the
 * mode only picks the threshold T of the text's (language, length) cell, set on held-out sources
 * so that at most 1% / 3% / 10% of human texts reach it (src/detector/score/calibration.ts). p is
 * calibrated at even odds, so p < 0.5 means "more likely human than AI":
 *
 *   p >= max(T, 0.5), cell conclusive at the mode, p >= AI_FLOOR  -> ai
 *   p >= max(T, 0.5), cell conclusive at the mode                 -> likely_ai
 *   p >= 0.5 (AI-leaning, but the mode cannot keep its promise)    -> inconclusive
 *   p >= HUMAN_BELOW                                                -> likely_human
 *   otherwise                                                       -> human
 *
 * `mixed` (human and AI passages) is decided from the segments (./mixed.ts); ./index.ts puts the rules together.
 */
import { LENGTH_BUCKETS, type CellCalibration, plattProbability } from '../score/calibration';
import { cellAt } from '../score/probability';
import { modelLang, type Sensitivity, type TextLang, type VerdictKey } from '../../contract';
import type { ModelFile } from '../score/model';

/** Above the mode threshold, a probability this high is called plainly AI. */
export const AI_FLOOR = 0.9;
/** Even odds: from here up the evidence leans AI. */
export const EVEN_ODDS = 0.5;
/** Below this probability the text is called plainly human (4:1 odds for a person). */
export const HUMAN_BELOW = 0.2;

/** The calibration cell a text falls in. */
export function cellOf(model: ModelFile, lang: TextLang, words: number): CellCalibration {
  return cellAt(model, modelLang(lang), words);
}

/** The smallest probability called AI in a cell at a mode (never below even odds). */
export function aiThreshold(cell: CellCalibration, mode: Sensitivity): number {
  return Math.max(cell.thresholds[mode], EVEN_ODDS);
}

/**
 * The smallest probability called AI in a cell at a mode when the threshold is another logit than
 * the language's (a calibration profile's): that logit through the cell's calibration, never below
 * even odds (a profile moves the bar, never the meaning of the score: docs/calibration.md).
 */
export function aiThresholdAt(cell: CellCalibration, thresholdLogit: number): number {
  return Math.max(plattProbability(cell.platt, thresholdLogit), EVEN_ODDS);
}

/**
 * Verdict for a calibrated probability of a text of `words` words at a sensitivity; `thresholdLogit`
 * replaces the language's threshold (a calibration profile's, src/detector/decide/profile.ts).
 */
export function decideVerdict(
  model: ModelFile,
  probability: number,
  lang: TextLang,
  words: number,
  mode: Sensitivity,
  thresholdLogit?: number,
): VerdictKey {
  const cell = cellOf(model, lang, words);
  const threshold = thresholdLogit === undefined ? aiThreshold(cell, mode) : aiThresholdAt(cell, thresholdLogit);
  return verdictFor(probability, threshold, cell.conclusive[mode]);
}

/**
 * The rule itself, for a probability and the smallest probability called AI (never below even odds),
 * in a cell that may (`conclusive`) or may not give AI verdicts at the mode: the model's score with a
 * cell's threshold, or a profile's adapted score with its bar.
 */
export function verdictFor(probability: number, threshold: number, conclusive: boolean): VerdictKey {
  if (probability >= threshold && conclusive) return probability >= AI_FLOOR ? 'ai' : 'likely_ai';
  if (probability >= EVEN_ODDS) return 'inconclusive';
  if (probability >= HUMAN_BELOW) return 'likely_human';
  return 'human';
}

/**
 * The fewest words from which texts of the language get AI verdicts at `mode` (every longer cell is
 * conclusive), or null when no length does: what the "too short" reason quotes.
 */
export function conclusiveFrom(model: ModelFile, lang: TextLang, mode: Sensitivity): number | null {
  const cells = model.cells[modelLang(lang)];
  let b = cells.length;
  while (b > 0 && cells[b - 1].conclusive[mode]) b--;
  return b < cells.length ? LENGTH_BUCKETS[b] : null;
}
