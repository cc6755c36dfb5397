/**
 * Mixed authorship: split a text into human and AI passages at sentence boundaries. Each sentence
 * carries evidence for AI: its own lexical logit from the wasm core's scores, above a neutral level,
 * counted fully from a minimum number of n-grams (a short sentence says less), plus a share of the
 * whole text's reading. (Evidence that adds up over n-grams, naive-Bayes style, was tried: it found
 * as much of the AI parts and fewer of the wholly AI texts, model card.) A two-state chain (human, AI) with a price for every switch
 * is decoded exactly by dynamic programming (Viterbi), so one odd sentence does not flip a passage
 * but a run of AI-leaning sentences does. Pure: the parameters come from the trained model
 * (scripts/lib/segments-fit.ts).
 */
import { sigmoid } from './logistic';

/** What the decoder needs of one sentence. */
export interface SegmentInput {
  start: number;
  end: number;
  words: number;
  /** The sentence's own lexical logit (core score / sqrt(n-grams) + bias). */
  logit: number;
  /** Distinct n-grams of the sentence (how much evidence it carries). */
  grams: number;
}

/** Fitted on mixes built from the data (bun run train; numbers in the model card). */
export interface SegmentParams {
  /** Evidence of a sentence for AI = scale * (logit - center) * min(1, grams / gramsFull). */
  scale: number;
  /** Sentence logit that is neutral (neither human nor AI). */
  center: number;
  /** N-grams from which a sentence's evidence counts fully (shorter sentences say less). */
  gramsFull: number;
  /** Log-odds added per sentence from the document's own score (doc logit * docWeight): the text's overall reading as a prior. */
  docWeight: number;
  /** Price of a change of author between two sentences. */
  switchCost: number;
}

/** A passage of one author: UTF-16 offsets into the text as submitted. */
export interface Segment {
  start: number;
  end: number;
  label: 'ai' | 'human';
  /** 0-100: the passage's mean AI probability. */
  score: number;
  words: number;
}

const HUMAN = 0;
const AI = 1;

/** Evidence (log-odds for AI) of each sentence, the document prior included. */
export function sentenceEvidence(sentences: readonly SegmentInput[], docLogit: number, p: SegmentParams): Float64Array {
  const e = new Float64Array(sentences.length);
  const prior = p.docWeight * docLogit;
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i];
    e[i] = p.scale * (s.logit - p.center) * Math.min(1, s.grams / p.gramsFull) + prior;
  }
  return e;
}

/**
 * The most likely author of each sentence: maximises the sum of the AI sentences' evidence minus
 * switchCost per change (human sentences score 0). O(n), two states.
 */
export function decodeAuthors(evidence: Float64Array, switchCost: number): Uint8Array {
  const n = evidence.length;
  const labels = new Uint8Array(n);
  if (n === 0) return labels;
  // back[i*2+s]: the state at i-1 on the best path that is in state s at i.
  const back = new Uint8Array(n * 2);
  let h = 0;
  let a = evidence[0];
  for (let i = 1; i < n; i++) {
    const stayH = h;
    const toH = a - switchCost;
    const stayA = a;
    const toA = h - switchCost;
    back[i * 2 + HUMAN] = stayH >= toH ? HUMAN : AI;
    back[i * 2 + AI] = stayA >= toA ? AI : HUMAN;
    h = Math.max(stayH, toH);
    a = Math.max(stayA, toA) + evidence[i];
  }
  let state = a > h ? AI : HUMAN;
  for (let i = n - 1; i >= 0; i--) {
    labels[i] = state;
    state = back[i * 2 + state];
  }
  return labels;
}

/**
 * A sentence's AI probability as the decoder reads it: sigmoid of its evidence (its own calibrated
 * lexical reading plus the document prior), the very numbers a passage's score is the word-weighted
 * mean of. Only sentences with words are scored (a line of symbols has nothing to read).
 */
export interface SentenceScore {
  start: number;
  end: number;
  words: number;
  /** 0 to 1. */
  probability: number;
}

/** Segments of a text and the decoder's reading of each sentence with words, in text order. */
export interface SegmentedText {
  segments: Segment[];
  sentences: SentenceScore[];
}

/**
 * Segments of a text: consecutive sentences of one author form a passage; passages touch (each
 * ends where the next starts), so together they cover the text from its first word to its last.
 * Sentences without words (a line of symbols) join the passage around them.
 */
export function segmentText(sentences: readonly SegmentInput[], docLogit: number, p: SegmentParams): Segment[] {
  return segmentSentences(sentences, docLogit, p).segments;
}

/** segmentText, with each spoken sentence's probability (the numbers each passage's score averages). */
export function segmentSentences(sentences: readonly SegmentInput[], docLogit: number, p: SegmentParams): SegmentedText {
  const spoken = sentences.filter((s) => s.words > 0);
  if (!spoken.length) return { segments: [], sentences: [] };
  const evidence = sentenceEvidence(spoken, docLogit, p);
  const labels = decodeAuthors(evidence, p.switchCost);
  const out: Segment[] = [];
  let from = 0;
  for (let i = 1; i <= spoken.length; i++) {
    if (i < spoken.length && labels[i] === labels[from]) continue;
    let words = 0;
    let sum = 0;
    for (let k = from; k < i; k++) {
      words += spoken[k].words;
      sum += sigmoid(evidence[k]) * spoken[k].words;
    }
    out.push({
      start: spoken[from].start,
      end: i < spoken.length ? spoken[i].start : spoken[i - 1].end,
      label: labels[from] === AI ? 'ai' : 'human',
      score: Math.round((100 * sum) / Math.max(1, words)),
      words,
    });
    from = i;
  }
  const scored = spoken.map((s, k) => ({ start: s.start, end: s.end, words: s.words, probability: sigmoid(evidence[k]) }));
  return { segments: out, sentences: scored };
}

/** How far apart (in log-odds) the common shift of anchorSentences may move the sentences, either way. */
const ANCHOR_SPAN = 40;
/** Most steps of the search for that shift (bisection alone would need 50 for 2^-50 of 80 log-odds). */
const ANCHOR_STEPS = 50;
/** The search stops once the mean is this close to the target: far below what a 0-100 score can show. */
const ANCHOR_TOLERANCE = 1e-10;

/**
 * Shifts every sentence's log-odds by one common amount so that their word-weighted mean probability
 * is `target`: a text read as one passage is scored as the whole document (its calibrated score), and
 * its sentences must average to that score while keeping their order and their spread. The mean is
 * increasing in the shift: Newton steps, kept inside a bisection bracket, reach it in a few steps
 * (bisection alone took 50, ~30 us a 500-word text on every detection). Returns new records;
 * `sentences` is not changed.
 */
export function anchorSentences(sentences: readonly SentenceScore[], target: number): SentenceScore[] {
  const words = sentences.reduce((n, s) => n + s.words, 0);
  if (!sentences.length || words === 0) return sentences.map((s) => ({ ...s }));
  const logits = sentences.map((s) => logitOf(s.probability));
  let lo = -ANCHOR_SPAN;
  let hi = ANCHOR_SPAN;
  let shift = 0;
  for (let i = 0; i < ANCHOR_STEPS; i++) {
    let mean = 0;
    let slope = 0;
    for (let k = 0; k < sentences.length; k++) {
      const p = sigmoid(logits[k] + shift);
      mean += p * sentences[k].words;
      slope += p * (1 - p) * sentences[k].words;
    }
    const gap = mean / words - target;
    if (Math.abs(gap) < ANCHOR_TOLERANCE) break;
    if (gap < 0) lo = shift;
    else hi = shift;
    const newton = shift - gap / (slope / words);
    shift = slope > 0 && newton > lo && newton < hi ? newton : (lo + hi) / 2;
  }
  return sentences.map((s, k) => ({ ...s, probability: sigmoid(logits[k] + shift) }));
}

/** Log-odds of a probability, kept finite at 0 and 1. */
function logitOf(p: number): number {
  const q = Math.min(1 - 1e-12, Math.max(1e-12, p));
  return Math.log(q / (1 - q));
}

/** Words in AI passages over all words (0 to 1). */
export function aiShareOf(segments: readonly Segment[]): number {
  let ai = 0;
  let all = 0;
  for (const s of segments) {
    all += s.words;
    if (s.label === 'ai') ai += s.words;
  }
  return all > 0 ? ai / all : 0;
}
