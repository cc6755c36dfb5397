/**
 * The catalogue of detection dimensions. Each dimension reads one document measure (thresholded at
 * a value calibrated on human training texts, see scripts/train.ts) and says which sentences
 * trigger it. Adding a dimension is adding one entry here and its labels in src/i18n.
 */
import { changedLetters, type EngineResult, type ScoredSentence } from '../score/engine';
import { COUNT, isHeadingOrList } from '../score/counts';
import type { Sensitivity } from '../../contract';
import { STRAY_MARK } from '../score/normalize';

/** Which side of the threshold points to AI. */
export type Direction = 'high' | 'low';

export interface DimensionContext {
  result: EngineResult;
  text: string;
  mode: Sensitivity;
  /** The document threshold of this dimension for the text's language. */
  threshold: number;
  /** Sentence probability threshold of the lexical fingerprint for this mode. */
  sentenceThreshold: number;
  /** Document AI threshold for this mode (calibrated probability). */
  docThreshold: number;
  /** Median length of the sentences worth annotating (computed once per document). */
  medianWords: number;
  /** How many sentences open with each first-two-words hash (computed once per document). */
  openings: Map<number, number>;
  /** The verdict is `mixed`: the fingerprint is found in part of the text. */
  mixed: boolean;
  /** Whether a sentence lies in a passage read as AI-written (every sentence when the text has no passages). */
  inAiPassage(s: ScoredSentence): boolean;
}

/** Per-document facts several dimensions read; computed once, not per sentence. */
export function documentFacts(r: EngineResult): { medianWords: number; openings: Map<number, number> } {
  const lens = r.sentences
    .map((s) => s.words)
    .filter((w) => w >= MIN_TRIGGER_WORDS)
    .sort((a, b) => a - b);
  const openings = new Map<number, number>();
  for (const s of r.sentences) if (s.firstTwo !== 0) openings.set(s.firstTwo, (openings.get(s.firstTwo) ?? 0) + 1);
  return { medianWords: lens.length ? lens[lens.length >> 1] : 0, openings };
}

export interface Dimension {
  id: string;
  direction: Direction;
  /** The document measure (NaN when it cannot be measured, e.g. too few sentences). */
  measure(r: EngineResult): number;
  /** Whether the dimension fires for the document (default: measure beyond the threshold). */
  detect?(value: number, ctx: DimensionContext): boolean;
  /** Whether a sentence triggers this dimension (asked only for sentences worth annotating). */
  triggers(s: ScoredSentence, ctx: DimensionContext, detected: boolean): boolean;
}

/**
 * Style dimensions judge a document only from this many words on: shorter texts say too little
 * about rhythm or register (thresholds are calibrated on such texts too, in scripts/train.ts).
 */
export const MIN_STYLE_WORDS = 100;
/** Sentences shorter than this are too short to say anything about. */
export const MIN_TRIGGER_WORDS = 5;
/** Rate-based dimensions (voice, specificity) need this many words to say anything. */
const MIN_WORDS_FOR_RATES = 120;
/** A sentence made of at least this share of the most common words reads as predictable. */
const COMMON_WORD_SENTENCE_SHARE = 0.85;
/** A sentence within this relative distance of the median length counts as "uniform". */
const UNIFORM_LENGTH_BAND = 0.15;

/** An invisible character between two letters: a word broken to hide it from a detector. */
const INVISIBLE_IN_WORD = /\p{L}[\u200B-\u200F\u2060-\u2064\uFEFF\u00AD\u180E\u202A-\u202E\u2066-\u2069]+\p{L}/u;
/** A letter NFKC reads as another (full-width, mathematical alphanumerics). */
const COMPAT_LETTER = /[\uFF21-\uFF3A\uFF41-\uFF5A]|[\u{1D400}-\u{1D7FF}]/u;
/** A Latin letter next to a Cyrillic/Greek one: a disguised word. No nested quantifier: linear time. */
const MIXED_SCRIPT = /\p{Script=Latin}[\p{Script=Cyrillic}\p{Script=Greek}]|[\p{Script=Cyrillic}\p{Script=Greek}]\p{Script=Latin}/u;

/** The fixed catalogue, in display order. */
export const DIMENSIONS: Dimension[] = [
  {
    id: 'lexical_fingerprint',
    direction: 'high',
    measure: (r) => r.probability,
    detect: (v, ctx) => v >= ctx.docThreshold || ctx.mixed,
    triggers: (s, ctx, detected) => detected && s.probability >= ctx.sentenceThreshold && ctx.inAiPassage(s),
  },
  {
    id: 'low_burstiness',
    direction: 'low',
    measure: (r) => r.style.sentenceCV,
    triggers: (s, ctx, detected) => {
      const m = ctx.medianWords;
      return detected && m > 0 && Math.abs(s.words - m) <= UNIFORM_LENGTH_BAND * m;
    },
  },
  {
    id: 'predictable_vocabulary',
    direction: 'low',
    measure: (r) => r.style.lexicalDiversity,
    triggers: (s, _ctx, detected) => detected && s.words >= 8 && COUNT.commonWords(s) / s.words >= COMMON_WORD_SENTENCE_SHARE,
  },
  {
    id: 'stock_phrases',
    direction: 'high',
    measure: (r) => r.style.stockRate,
    triggers: (s, _ctx, detected) => detected && COUNT.stockPhrases(s) > 0,
  },
  {
    id: 'transition_overuse',
    direction: 'high',
    measure: (r) => (r.sentences.length >= 4 ? r.style.openingTransitionShare : NaN),
    triggers: (s, _ctx, detected) => detected && COUNT.opensWithTransition(s) > 0,
  },
  {
    id: 'formal_register',
    direction: 'low',
    measure: (r) =>
      r.style.words >= MIN_WORDS_FOR_RATES
        ? r.style.contractionRate + r.style.personalRate + r.style.informalRate + r.style.questionExclaimRate
        : NaN,
    triggers: (s, _ctx, detected) =>
      detected &&
      s.words >= 12 &&
      COUNT.contractions(s) + COUNT.firstPerson(s) + COUNT.informalMarkers(s) + COUNT.questionsOrExclamations(s) === 0,
  },
  {
    id: 'repetitive_openings',
    direction: 'high',
    measure: (r) => r.style.openingRepeatShare,
    triggers: (s, ctx, detected) => detected && s.firstTwo !== 0 && (ctx.openings.get(s.firstTwo) ?? 0) > 1,
  },
  {
    id: 'chat_formatting',
    direction: 'high',
    measure: (r) => r.style.markdownPerParagraph,
    triggers: (s, _ctx, detected) => detected && isHeadingOrList(s),
  },
  {
    id: 'uniform_paragraphs',
    direction: 'low',
    measure: (r) => r.style.paragraphCV,
    triggers: () => false,
  },
  {
    id: 'low_specificity',
    direction: 'low',
    measure: (r) => (r.style.words >= MIN_WORDS_FOR_RATES ? r.style.numberRate + r.style.properRate : NaN),
    triggers: (s, _ctx, detected) => detected && s.words >= 12 && COUNT.numbers(s) + COUNT.properNames(s) === 0,
  },
  {
    id: 'hedged_framing',
    direction: 'high',
    measure: (r) => r.style.hedgeRate,
    triggers: (s, _ctx, detected) => detected && COUNT.hedges(s) > 0,
  },
  {
    id: 'obfuscation',
    direction: 'high',
    // Only characters changed inside words: look-alike letters in Latin words, invisible characters
    // between letters, disguised compatibility letters, combining marks no accent composes (t + U+0301).
    // A stray zero-width space between words (11 of 300 human Wikipedia texts) is not a trick.
    measure: changedLetters,
    detect: (v) => v > 0,
    triggers: (s, ctx, detected) => {
      if (!detected) return false;
      const span = ctx.text.slice(s.start, s.end);
      return INVISIBLE_IN_WORD.test(span) || MIXED_SCRIPT.test(span) || COMPAT_LETTER.test(span) || STRAY_MARK.test(span.normalize('NFC'));
    },
  },
];

/** Number of dimensions in the catalogue (`totalDimensions`). */
export const TOTAL_DIMENSIONS = DIMENSIONS.length;

/** Default document decision: the measure lies beyond the threshold on the AI side (and is measurable). */
export function beyond(d: Dimension, value: number, threshold: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(threshold)) return false;
  return d.direction === 'high' ? value > threshold && value > 0 : value <= threshold;
}

/** The measures of every dimension for a document, by id (training uses them to set thresholds). */
export function dimensionMeasures(r: EngineResult): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of DIMENSIONS) out[d.id] = d.measure(r);
  return out;
}
