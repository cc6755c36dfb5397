/** Sentence annotations: which sentences to flag, with the dimensions that flagged each one. */
import type { DimensionRef, TextAnnotation } from '../types';
import type { Sensitivity } from '../../contract';
import type { ScoredSentence } from '../score/engine';

/** Longest `sentence` text in an annotation; longer ones are cut and end with an ellipsis. */
export const MAX_SENTENCE_CHARS = 200;
/**
 * Style-only evidence needed to flag a sentence (the lexical fingerprint alone always suffices):
 * the more cautious the mode, the more independent signals must agree.
 */
export const STYLE_TRIGGERS_NEEDED: Record<Sensitivity, number> = { conservative: 3, balanced: 2, aggressive: 1 };

/** Shorten to at most `max` characters, ending with "…" when cut (never splits a surrogate pair). */
export function shorten(s: string, max = MAX_SENTENCE_CHARS): string {
  if (s.length <= max) return s;
  let cut = max - 1;
  const c = s.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut--;
  return `${s.slice(0, cut).trimEnd()}…`;
}

/**
 * Build annotations from each sentence's triggered (detected) dimensions, in text order. `fallback`
 * (AI-side verdicts): the sentence to highlight with the lexical fingerprint when no sentence
 * qualified, so an AI verdict always shows where it comes from. `where`: the sentences that may be
 * highlighted (a mixed text's AI passages).
 */
export function buildAnnotations(
  text: string,
  sentences: ScoredSentence[],
  triggered: DimensionRef[][],
  mode: Sensitivity,
  fallback: { sentence: ScoredSentence; dims: DimensionRef[] } | null,
  where: (s: ScoredSentence) => boolean = () => true,
): TextAnnotation[] {
  const out: TextAnnotation[] = [];
  sentences.forEach((s, i) => {
    const dims = triggered[i];
    if (!dims.length || !where(s)) return;
    const lexical = dims.some((d) => d.id === 'lexical_fingerprint');
    const style = dims.length - (lexical ? 1 : 0);
    if (!lexical && style < STYLE_TRIGGERS_NEEDED[mode]) return;
    out.push({ sentence: shorten(text.slice(s.start, s.end)), start: s.start, end: s.end, dims });
  });
  if (!out.length && fallback) {
    const s = fallback.sentence;
    out.push({ sentence: shorten(text.slice(s.start, s.end)), start: s.start, end: s.end, dims: fallback.dims });
  }
  return out;
}
