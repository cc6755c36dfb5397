/**
 * The `mixed` verdict: the text has a passage that is AI-written by the same standard as a whole
 * text (its own score reaches the mode's threshold for its length, in a conclusive cell) and a
 * passage that reads as human. Holding each AI passage to the whole-text promise is what keeps
 * `mixed` from becoming a back door for false accusations.
 */
import { modelLang, type Sensitivity } from '../../contract';
import type { EngineResult } from '../score/engine';
import type { ModelFile } from '../score/model';
import { passageProbability } from '../score/probability';
import type { Segment } from '../score/segments';
import { aiThreshold, cellOf, EVEN_ODDS } from './verdict';

/** A human passage must have at least this many words to count as one (a greeting is not). */
export const MIN_HUMAN_PASSAGE_WORDS = 30;
/** `mixed` needs AI passages to hold between these shares of the words; beyond, the whole-text verdict says it. */
export const MIN_MIXED_SHARE = 0.1;
export const MAX_MIXED_SHARE = 0.9;

/** The AI passage that makes a text `mixed` at this mode (the most AI-like one), or null. */
export function mixedPassage(model: ModelFile, r: EngineResult, mode: Sensitivity): Segment | null {
  if (r.aiShare < MIN_MIXED_SHARE || r.aiShare > MAX_MIXED_SHARE) return null;
  const human = r.segments.some(
    (s) =>
      s.label === 'human' &&
      s.words >= MIN_HUMAN_PASSAGE_WORDS &&
      passageProbability(model, r.sentences, modelLang(r.language), s) < EVEN_ODDS,
  );
  if (!human) return null;
  let best: Segment | null = null;
  let bestP = 0;
  for (const s of r.segments) {
    if (s.label !== 'ai') continue;
    const cell = cellOf(model, r.language, s.words);
    const p = passageProbability(model, r.sentences, modelLang(r.language), s);
    if (cell.conclusive[mode] && p >= aiThreshold(cell, mode) && p > bestP) [best, bestP] = [s, p];
  }
  return best;
}
