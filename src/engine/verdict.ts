/**
 * Deciding, kept apart from scoring: the calibrated probability does not depend on the mode; the
 * mode only picks the threshold, calibrated on human dev texts per language (see model card).
 *
 *   p >= T_mode and p >= AI_FLOOR  -> ai
 *   p >= T_mode                    -> likely_ai
 *   p >= T_mode * MIXED_SHARE      -> mixed
 *   p >= T_mode * HUMAN_SHARE      -> likely_human
 *   otherwise                      -> human
 */
import { modelLang } from './engine';
import type { ModelFile } from './model';
import type { Sensitivity, TextLang, VerdictKey } from './types';

/** Above the mode threshold, a probability this high is called plainly AI. */
export const AI_FLOOR = 0.9;
/** Below the threshold, from this share of it the evidence is "mixed". */
export const MIXED_SHARE = 0.5;
/** Below MIXED_SHARE, from this share of the threshold the text is "likely human". */
export const HUMAN_SHARE = 0.2;

/** Verdict for a calibrated probability at a sensitivity, with the language's thresholds. */
export function decideVerdict(model: ModelFile, probability: number, lang: TextLang, mode: Sensitivity): VerdictKey {
  const t = model.thresholds[modelLang(lang)][mode];
  if (probability >= t) return probability >= AI_FLOOR ? 'ai' : 'likely_ai';
  if (probability >= t * MIXED_SHARE) return 'mixed';
  if (probability >= t * HUMAN_SHARE) return 'likely_human';
  return 'human';
}

/** True when a verdict calls the text AI-generated or likely AI-generated. */
export function isAiVerdict(v: VerdictKey): boolean {
  return v === 'ai' || v === 'likely_ai';
}
