/**
 * Calibrated probabilities: the one formula (Platt scaling of the lexical logit in the text's
 * (language, length) cell) for a whole text and for a passage of it. The mixed verdict holds a
 * passage to the same calibration as a whole text, so both come from here.
 */
import type { ModelLang } from '../../contract';
import { cellFor, type CellCalibration, plattProbability } from './calibration';
import { SF } from './layout';
import type { ModelFile } from './model';
import type { SentenceRecord } from './style';

/**
 * The learned lexical logit of a text or sentence: its distinct n-grams are binary features,
 * L2-normalised, so the logit is sum(w) / sqrt(distinct n-grams) + bias.
 */
export function lexicalLogit(weightSum: number, distinctGrams: number, bias: number): number {
  return distinctGrams > 0 ? weightSum / Math.sqrt(distinctGrams) + bias : bias;
}

/** The calibration of a `words`-word text of language `ml` in the model: its cell, blended by length (calibration.ts cellFor). */
export function cellAt(model: ModelFile, ml: ModelLang, words: number): CellCalibration {
  return cellFor(model.cells[ml], words, model.thresholdLogits[ml]);
}

/** p = sigmoid(a * logit + b) with the Platt parameters of a `words`-word text. */
export function calibratedProbability(model: ModelFile, ml: ModelLang, logit: number, words: number): number {
  return plattProbability(cellAt(model, ml, words).platt, logit);
}

/** A passage's calibrated probability, scored on its sentences' n-grams alone, as if it were a text of its own. */
export function passageProbability(
  model: ModelFile,
  sentences: readonly SentenceRecord[],
  ml: ModelLang,
  passage: { start: number; end: number; words: number },
): number {
  let score = 0;
  let grams = 0;
  for (const s of sentences) {
    if (s.start < passage.start || s.end > passage.end) continue;
    score += s.f[SF.SCORE];
    grams += s.f[SF.NGRAMS];
  }
  return calibratedProbability(model, ml, lexicalLogit(score, grams, model.lexicalBias[ml]), passage.words);
}
