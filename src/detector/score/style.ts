/**
 * Document-level style features computed from the core's per-sentence counts. Pure functions:
 * the explanation dimensions and the document-type classifier read them; the score does not.
 */
import { SF, SentFlag } from './layout';

/** One sentence as read from the core. */
export interface SentenceRecord {
  start: number;
  end: number;
  flags: number;
  first: number;
  firstTwo: number;
  paragraph: number;
  /** Raw feature counts (SF slots). */
  f: Float32Array;
}

export interface ParagraphRecord {
  start: number;
  end: number;
  words: number;
  sentences: number;
}

/** Named document features; rates are per 100 words unless the name says otherwise. */
export interface StyleFeatures {
  words: number;
  sentences: number;
  /** Coefficient of variation of sentence lengths (burstiness); NaN with fewer than 4 prose sentences. */
  sentenceCV: number;
  meanSentenceWords: number;
  /** Coefficient of variation of paragraph lengths; NaN with fewer than 3 prose paragraphs. */
  paragraphCV: number;
  transitionRate: number;
  /** Share of sentences that open with a transition. */
  openingTransitionShare: number;
  stockRate: number;
  hedgeRate: number;
  personalRate: number;
  contractionRate: number;
  informalRate: number;
  numberRate: number;
  properRate: number;
  /** Share of words among the most frequent words of human writing (predictability). */
  commonWordShare: number;
  longWordShare: number;
  meanWordLength: number;
  commasPerSentence: number;
  dashRate: number;
  questionExclaimRate: number;
  semicolonColonRate: number;
  allCapsRate: number;
  /** Share of sentences whose first two words repeat another sentence's opening. */
  openingRepeatShare: number;
  /** Markdown structure (headings, list items, bold runs) per paragraph. */
  markdownPerParagraph: number;
  /** Moving-average type-token ratio over MATTR_WINDOW words (lexical diversity); NaN for short texts. */
  lexicalDiversity: number;
}

/** Window of the moving-average type-token ratio. */
export const MATTR_WINDOW = 50;

/** Buckets of the MATTR counter: words are told apart by 16 bits of their hash (a rare collision only nudges the ratio). */
const MATTR_BUCKETS = 1 << 16;
const mattrCounts = new Uint16Array(MATTR_BUCKETS);

/** Moving-average type-token ratio of a sequence of word hashes (NaN when shorter than the window). */
export function mattr(words: Uint32Array, n: number, window = MATTR_WINDOW): number {
  if (n < window) return NaN;
  const counts = mattrCounts;
  const mask = MATTR_BUCKETS - 1;
  let distinct = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const b = words[i] & mask;
    if (counts[b]++ === 0) distinct++;
    if (i >= window) {
      const old = words[i - window] & mask;
      if (--counts[old] === 0) distinct--;
    }
    if (i >= window - 1) sum += distinct / window;
  }
  // Leave the counter empty for the next call: only the last window is still counted.
  for (let i = n - window; i < n; i++) counts[words[i] & mask] = 0;
  return sum / (n - window + 1);
}

/** Prose sentences shorter than this are left out of the burstiness measure (headings, fragments). */
const MIN_PROSE_SENTENCE_WORDS = 3;
const MIN_SENTENCES_FOR_CV = 4;
const MIN_PARAGRAPH_WORDS = 15;
const MIN_PARAGRAPHS_FOR_CV = 3;

function cv(values: number[]): number {
  const n = values.length;
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / n;
  let ss = 0;
  for (const v of values) ss += (v - mean) * (v - mean);
  return mean > 0 ? Math.sqrt(ss / n) / mean : 0;
}

/** Compute the style features of a document from its sentences and paragraphs. */
export function styleFeatures(
  sents: SentenceRecord[],
  paras: ParagraphRecord[],
  markdownMarks: number,
  lexicalDiversity: number,
): StyleFeatures {
  const tot = new Float64Array(20);
  const proseLengths: number[] = [];
  const openings = new Map<number, number>();
  let openingsCounted = 0;
  for (const s of sents) {
    for (let k = 0; k < 20; k++) tot[k] += s.f[k];
    const w = s.f[SF.WORDS];
    const structural = (s.flags & (SentFlag.HEADING | SentFlag.LIST)) !== 0;
    if (!structural && w >= MIN_PROSE_SENTENCE_WORDS) proseLengths.push(w);
    if (w >= MIN_PROSE_SENTENCE_WORDS && s.firstTwo !== 0) {
      openings.set(s.firstTwo, (openings.get(s.firstTwo) ?? 0) + 1);
      openingsCounted++;
    }
  }
  let repeated = 0;
  for (const c of openings.values()) if (c > 1) repeated += c;
  const proseParas = paras.filter((p) => p.words >= MIN_PARAGRAPH_WORDS).map((p) => p.words);
  const words = Math.max(1, tot[SF.WORDS]);
  const nSent = Math.max(1, sents.length);
  const per100 = (k: number) => (100 * tot[k]) / words;
  return {
    words: tot[SF.WORDS],
    sentences: sents.length,
    sentenceCV: proseLengths.length >= MIN_SENTENCES_FOR_CV ? cv(proseLengths) : NaN,
    meanSentenceWords: tot[SF.WORDS] / nSent,
    paragraphCV: proseParas.length >= MIN_PARAGRAPHS_FOR_CV ? cv(proseParas) : NaN,
    transitionRate: per100(SF.TRANSITION),
    openingTransitionShare: tot[SF.OPENS_TRANSITION] / nSent,
    stockRate: per100(SF.STOCK),
    hedgeRate: per100(SF.HEDGE),
    personalRate: per100(SF.PERSONAL),
    contractionRate: per100(SF.CONTRACTION),
    informalRate: per100(SF.INFORMAL),
    numberRate: per100(SF.NUMBERS),
    properRate: per100(SF.PROPER),
    commonWordShare: tot[SF.VOCAB] / words,
    longWordShare: tot[SF.LONG] / words,
    meanWordLength: tot[SF.LETTERS] / words,
    commasPerSentence: tot[SF.COMMAS] / nSent,
    dashRate: per100(SF.DASHES),
    questionExclaimRate: per100(SF.QUESTION_EXCLAIM),
    semicolonColonRate: per100(SF.SEMI_COLON),
    allCapsRate: per100(SF.ALLCAPS),
    openingRepeatShare: openingsCounted >= MIN_SENTENCES_FOR_CV ? repeated / openingsCounted : 0,
    markdownPerParagraph: markdownMarks / Math.max(1, paras.length),
    lexicalDiversity,
  };
}
