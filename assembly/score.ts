// Pass 2: per sentence, masked-token n-grams looked up in the weight table (the learned lexical
// score) and the counts behind the style dimensions. N-grams never cross a sentence boundary, so
// the document score is exactly the sum of its sentences' contributions.
import { combine, mix32 } from './hash';
import { Lex, lexGet, langSalt } from './lexicon';
import {
  weightsPtr, weightsMask, lutPtr, seenPtr, scratchPtr, reserveScoring, SEEN_ENTRY_BYTES, featPtr, featCap, tokInfo, tokHash, tokShape, sentField, setSentField,
  sentFeatAddr, SENT_FEATURES, docGet, docSet,
} from './layout';
import { Kind, Info, Doc, SF, SR } from './token';
import { NUM_ID, SYMBOL_ID, tokenCount } from './tokenize';

const BOS_ID: u32 = 0x9b05688c;
const ORDER_SALT_1: u32 = 0x1f83d9ab;
const ORDER_SALT_2: u32 = 0x5be0cd19;
const ORDER_SALT_3: u32 = 0xcbbb9d5d;
const ORDER_SALT_4: u32 = 0x629a292a;
const SKIP_SALT: u32 = 0x9159015a;
const COARSE_SALT: u32 = 0x152fecd8;
/** Stand-in for every word outside the function-word list in the coarse channel. */
const COARSE_X: u32 = 0x67332667;

/** Feature channels (bits): masked 1-3-grams, masked 4-grams, skip-bigrams, coarse 3-5-grams. */
export namespace Channel {
  export const MASKED: u32 = 1;
  export const MASKED4: u32 = 2;
  export const SKIP: u32 = 4;
  export const COARSE: u32 = 8;
}
let channels: u32 = Channel.MASKED;

/** Select the feature channels (the model records which ones it was trained with). */
export function setChannels(c: u32): void {
  channels = c;
}
/** Longest stock phrase, in words. */
const MAX_PHRASE_WORDS: u32 = 5;
/** A word of at least this many letters counts as long. */
const LONG_WORD_LETTERS: u32 = 8;

let emitting = false;
let nFeat: u32 = 0;
let sum: f32 = 0;
let grams: u32 = 0;
let docSum: f32 = 0;
let docGrams: u32 = 0;
/** Sentence index + 1: marks an n-gram as already counted in the current sentence. */
let sentMark: u32 = 0;
let seenMask: u32 = 0;

/** Mixed hashes of the current sentence's n-grams, then their weights (see flushGrams). */
let pending: u32 = 0;

/** Queue an n-gram of the current sentence; flushGrams counts the queue at the sentence's end. */
@inline function gram(h: u32): void {
  store<u32>(scratchPtr + (<usize>pending << 2), mix32(h));
  pending++;
}

/**
 * Count the queued n-grams, each once per sentence and once per document (binary features, as
 * trained), in queue order. The weight bytes are loaded first, in a loop of independent loads:
 * the table is 4 MB, mostly outside the core's caches, and the CPU can then wait for many misses
 * at once instead of one per n-gram behind the set lookup's branches.
 */
function flushGrams(): void {
  const n = pending;
  pending = 0;
  const weights = scratchPtr + (<usize>n << 2);
  for (let k: u32 = 0; k < n; k++) {
    const idx = load<u32>(scratchPtr + (<usize>k << 2)) & weightsMask;
    store<f32>(weights + (<usize>k << 2), load<f32>(lutPtr + (<usize>load<u8>(weightsPtr + <usize>idx) << 2)));
  }
  for (let k: u32 = 0; k < n; k++) countGram(load<u32>(scratchPtr + (<usize>k << 2)), load<f32>(weights + (<usize>k << 2)));
}

/** One n-gram (mixed hash `m`, weight `w`) into the sentence's and the document's sums, if not seen there yet. */
@inline function countGram(m: u32, w: f32): void {
  const idx = m & weightsMask;
  const key = idx + 1;
  let slot = m & seenMask;
  for (;;) {
    const e = seenPtr + <usize>slot * SEEN_ENTRY_BYTES;
    const k = load<u32>(e);
    if (k == key) {
      if (load<u32>(e, 4) == sentMark) return;
      store<u32>(e, sentMark, 4);
      sum += w;
      grams++;
      return;
    }
    if (k == 0) {
      store<u32>(e, key);
      store<u32>(e, sentMark, 4);
      sum += w;
      grams++;
      docSum += w;
      docGrams++;
      if (emitting && nFeat < featCap) {
        store<u32>(featPtr + (<usize>nFeat << 2), idx);
        nFeat++;
      }
      return;
    }
    slot = (slot + 1) & seenMask;
  }
}

/** Most n-grams one token can add with the selected channels. */
function gramsPerToken(): u32 {
  let n: u32 = 0;
  if ((channels & Channel.MASKED) != 0) n += 3;
  if ((channels & Channel.MASKED4) != 0) n += 1;
  if ((channels & Channel.SKIP) != 0) n += 1;
  if ((channels & Channel.COARSE) != 0) n += 3;
  return n;
}

/**
 * An empty seen set with room for every n-gram of `tokens` tokens at a load factor of at most 1/2,
 * and a queue (hash + weight) long enough for a sentence of all of them.
 */
function prepareScoring(tokens: u32): void {
  let entries: u32 = 64;
  const most = tokens * gramsPerToken();
  while (entries < most * 2) entries <<= 1;
  if (!reserveScoring(entries, most)) unreachable();
  seenMask = entries - 1;
  memory.fill(seenPtr, 0, <usize>entries * SEEN_ENTRY_BYTES);
  pending = 0;
}

@inline function addFeat(s: u32, f: u32, v: f32): void {
  const a = sentFeatAddr(s, f);
  store<f32>(a, load<f32>(a) + v);
}

/**
 * Style lexicon hits for the word at t and the phrases that start there; returns the OR of their
 * bits. `numeral`: the word is a capital I after a capitalised word inside the sentence ("Table I",
 * "World War I"), not the writer. `shortCapital`: a one- or two-letter word in capitals ("U.S."),
 * which is never the informal "u" or "ur".
 */
function phraseBits(t: u32, t1: u32, salt: u32, s: u32, numeral: bool, shortCapital: bool): u32 {
  let h = tokHash(t);
  let all = lexGet(h ^ salt);
  let words: u32 = (all & Lex.PHRASE_START) != 0 ? 1 : MAX_PHRASE_WORDS;
  for (let u = t + 1; u < t1 && words < MAX_PHRASE_WORDS; u++) {
    const k = tokInfo(u) & Info.KIND_MASK;
    if (k == Kind.MARKUP) continue;
    if (k != Kind.WORD) break;
    h = combine(h, tokHash(u));
    words++;
    all |= lexGet(h ^ salt) & (Lex.STOCK | Lex.TRANSITION | Lex.HEDGE | Lex.INFORMAL);
  }
  if ((all & Lex.STOCK) != 0) addFeat(s, SF.STOCK, 1);
  if ((all & Lex.TRANSITION) != 0) addFeat(s, SF.TRANSITION, 1);
  if ((all & Lex.HEDGE) != 0) addFeat(s, SF.HEDGE, 1);
  if ((all & Lex.PERSONAL) != 0 && !numeral) addFeat(s, SF.PERSONAL, 1);
  if ((all & Lex.INFORMAL) != 0 && !shortCapital) addFeat(s, SF.INFORMAL, 1);
  if ((all & Lex.CONTRACTION) != 0) addFeat(s, SF.CONTRACTION, 1);
  return all;
}

/** Score every sentence with the weights of language `lang`; when `emit`, also write n-gram indexes. */
export function scoreSentences(nSent: u32, lang: u32, emit: bool): f32 {
  emitting = emit;
  nFeat = 0;
  const salt = langSalt(lang);
  docSum = 0;
  docGrams = 0;
  prepareScoring(tokenCount());
  for (let s: u32 = 0; s < nSent; s++) {
    sentMark = s + 1;
    for (let f: u32 = 0; f < SENT_FEATURES; f++) store<f32>(sentFeatAddr(s, f), 0);
    const t0 = sentField(s, SR.TOK0);
    const t1 = sentField(s, SR.TOK1);
    let p1: u32 = BOS_ID;
    let p2: u32 = 0;
    let p3: u32 = 0;
    let c1: u32 = BOS_ID;
    let c2: u32 = 0;
    let c3: u32 = 0;
    let c4: u32 = 0;
    let firstWord = true;
    /** The previous word was capitalised and not the sentence's first. */
    let prevInnerCapital = false;
    sum = 0;
    grams = 0;
    setSentField(s, SR.FIRST, 0);
    setSentField(s, SR.FIRST_TWO, 0);
    for (let t = t0; t < t1; t++) {
      const info = tokInfo(t);
      const kind = info & Info.KIND_MASK;
      if (kind == Kind.MARKUP) continue;
      let id: u32 = 0;
      let coarse: u32 = 0;
      if (kind == Kind.WORD) {
        const h = tokHash(t);
        const letters = info >>> Info.LETTERS_SHIFT;
        const capital = (info & Info.CAP) != 0;
        const bits = phraseBits(t, t1, salt, s, letters == 1 && capital && prevInnerCapital, letters <= 2 && capital);
        prevInnerCapital = capital && !firstWord;
        const common = (bits & Lex.VOCAB) != 0;
        id = common ? h : tokShape(t);
        coarse = (bits & Lex.FUNC) != 0 ? h : COARSE_X;
        addFeat(s, SF.WORDS, 1);
        addFeat(s, SF.LETTERS, <f32>letters);
        if (common) addFeat(s, SF.VOCAB, 1);
        if (letters >= LONG_WORD_LETTERS) addFeat(s, SF.LONG, 1);
        if ((info & Info.ALLCAPS) != 0) addFeat(s, SF.ALLCAPS, 1);
        if (firstWord) {
          setSentField(s, SR.FIRST, h);
          let u = t + 1;
          while (u < t1 && (tokInfo(u) & Info.KIND_MASK) != Kind.WORD) u++;
          setSentField(s, SR.FIRST_TWO, u < t1 ? combine(h, tokHash(u)) : h);
          if ((bits & Lex.TRANSITION) != 0) addFeat(s, SF.OPENS_TRANSITION, 1);
        } else if ((info & Info.CAP) != 0 && !common) addFeat(s, SF.PROPER, 1);
        firstWord = false;
      } else if (kind == Kind.NUM) {
        prevInnerCapital = false;
        id = NUM_ID;
        addFeat(s, SF.WORDS, 1);
        addFeat(s, SF.NUMBERS, 1);
        firstWord = false;
      } else if (kind == Kind.CJK) {
        id = tokHash(t);
        addFeat(s, SF.WORDS, 1);
      } else if (kind == Kind.PUNCT) {
        id = tokHash(t);
        const c = tokShape(t);
        if (c == 44) addFeat(s, SF.COMMAS, 1);
        else if (c == 0x2014 || c == 0x2013) addFeat(s, SF.DASHES, 1);
        else if (c == 63 || c == 33 || c == 0xbf || c == 0xa1) addFeat(s, SF.QUESTION_EXCLAIM, 1);
        else if (c == 59 || c == 58) addFeat(s, SF.SEMI_COLON, 1);
      } else {
        id = SYMBOL_ID;
      }
      if (coarse == 0) coarse = id;
      if ((channels & Channel.MASKED) != 0) {
        gram(id ^ ORDER_SALT_1);
        if (p1 != 0) gram(combine(p1, id) ^ ORDER_SALT_2);
        if (p2 != 0) gram(combine(combine(p2, p1), id) ^ ORDER_SALT_3);
      }
      if ((channels & Channel.MASKED4) != 0 && p3 != 0) gram(combine(combine(combine(p3, p2), p1), id) ^ ORDER_SALT_4);
      if ((channels & Channel.SKIP) != 0 && p2 != 0) gram(combine(p2, id) ^ SKIP_SALT);
      if ((channels & Channel.COARSE) != 0 && c2 != 0) {
        const g3 = combine(combine(c2, c1), coarse);
        gram(g3 ^ COARSE_SALT);
        if (c3 != 0) {
          const g4 = combine(c3, g3);
          gram(g4 ^ COARSE_SALT);
          if (c4 != 0) gram(combine(c4, g4) ^ COARSE_SALT);
        }
      }
      p3 = p2;
      p2 = p1;
      p1 = id;
      c4 = c3;
      c3 = c2;
      c2 = c1;
      c1 = coarse;
    }
    flushGrams();
    store<f32>(sentFeatAddr(s, SF.NGRAMS), <f32>grams);
    store<f32>(sentFeatAddr(s, SF.SCORE), sum);
  }
  docSet(Doc.NGRAMS, docGrams);
  docSet(Doc.SCORE_BITS, reinterpret<u32>(docSum));
  docSet(Doc.FEATS, nFeat);
  emitting = false;
  return docSum;
}

/** Language of the text from stop-word hits: 0 English, 1 Spanish, 2 other. */
export function detectLanguage(): u32 {
  const words = docGet(Doc.WORDS);
  const en = docGet(Doc.EN_STOP);
  const es = docGet(Doc.ES_STOP);
  const best = Math.max(en , es);
  // Running prose in either language has 25-45% stop words; below 12% it is neither. Function words
  // of Portuguese, Italian, Catalan and French (none shared with English or Spanish) outvoting them
  // mean a neighbouring language, not Spanish.
  if (words == 0 || <f64>best < <f64>words * 0.12 || best < 2) return 2;
  if (docGet(Doc.OTHER_STOP) >= best) return 2;
  return en >= es ? 0 : 1;
}
