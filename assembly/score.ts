// Pass 2: per sentence, masked-token n-grams looked up in the weight table (the learned lexical
// score) and the counts behind the style dimensions. N-grams never cross a sentence boundary.
// The document score reads the prose view (prose.ts): its tokens, its sentences, and the full stop
// that may close it. Most of its n-grams are the sentences' own (same tokens, same context before
// them), so each n-gram is queued once with a flag per reader and its weight is loaded once; where
// the view's context differs (after a heading left out, across a line break the view reads as a
// space), the view's n-grams are queued apart.
import { combine, mix32 } from './hash';
import { Lex, lexGet, langSalt } from './lexicon';
import {
  weightsPtr, weightsMask, lutPtr, seenPtr, scratchPtr, reserveScoring, SEEN_ENTRY_BYTES, featPtr, featCap, tokInfo, tokHash, tokShape, sentField, setSentField,
  sentFeatAddr, SENT_FEATURES, docGet, docSet,
} from './layout';
import { Kind, Info, Doc, SF, SR } from './token';
import { NUM_ID, SYMBOL_ID, tokenCount, punctHash } from './tokenize';
import { viewIsText, viewCloses, viewWords, viewEnStop, viewEsStop, viewOtherStop } from './prose';
import { Ch } from './chars';

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

/**
 * Who reads a queued n-gram, in the top two bits of its mixed hash: the sentence, the document
 * (the prose view), or both. The weight index and the seen-set slot use only low bits (at most
 * 2^30 weights; the seen set lives in a 4 GB memory).
 */
const FOR_SENTENCE: u32 = 1 << 30;
const FOR_DOCUMENT: u32 = 1 << 31;
const HASH_BITS: u32 = FOR_SENTENCE - 1;
/** Seen-set mark: the document has counted the n-gram (the low bits hold the sentence mark); the same bit as FOR_DOCUMENT. */
const DOC_SEEN: u32 = FOR_DOCUMENT;
/** Readers of the n-grams `gram` queues next. */
let readers: u32 = FOR_SENTENCE | FOR_DOCUMENT;

/** Queue an n-gram for `readers`; flushGrams counts the queue at the sentence's end. */
@inline function gram(h: u32): void {
  store<u32>(scratchPtr + (<usize>pending << 2), (mix32(h) & HASH_BITS) | readers);
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

/**
 * One n-gram (mixed hash `m` with its readers, weight `w`) into the sentence's and the document's
 * sums, for each reader that has not counted it yet.
 */
@inline function countGram(m: u32, w: f32): void {
  const idx = m & weightsMask;
  const key = idx + 1;
  let slot = m & seenMask;
  for (;;) {
    const e = seenPtr + <usize>slot * SEEN_ENTRY_BYTES;
    const k = load<u32>(e);
    if (k == key) {
      const mark = load<u32>(e, 4);
      // Most n-grams: the sentence reads it and the document has counted it; only the sentence may count it.
      if ((m & FOR_SENTENCE) != 0 && (mark & DOC_SEEN) != 0) {
        if (mark == (sentMark | DOC_SEEN)) return;
        store<u32>(e, sentMark | DOC_SEEN, 4);
        sum += w;
        grams++;
        return;
      }
      countFresh(e, mark, m, idx, w);
      return;
    }
    if (k == 0) {
      store<u32>(e, key);
      countFresh(e, 0, m, idx, w);
      return;
    }
    slot = (slot + 1) & seenMask;
  }
}

/** The n-gram `m` (index `idx`, weight `w`) at seen-set entry `e` with mark `mark`: count it for the readers that have not. */
@inline function countFresh(e: usize, mark: u32, m: u32, idx: u32, w: f32): void {
  // The mark after this n-gram: this sentence's if the sentence reads it, DOC_SEEN if the document does.
  const after = ((m & FOR_SENTENCE) != 0 ? sentMark : mark & ~DOC_SEEN) | (mark & DOC_SEEN) | (m & FOR_DOCUMENT);
  const fresh = after ^ mark;
  if (fresh == 0) return;
  store<u32>(e, after, 4);
  if ((fresh & ~DOC_SEEN) != 0) {
    sum += w;
    grams++;
  }
  if ((fresh & DOC_SEEN) != 0) countForDocument(idx, w);
}

/** An n-gram (weight index `idx`, weight `w`) the document has not counted yet. */
@inline function countForDocument(idx: u32, w: f32): void {
  docSum += w;
  docGrams++;
  if (emitting && nFeat < featCap) {
    store<u32>(featPtr + (<usize>nFeat << 2), idx);
    nFeat++;
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
 * An empty seen set with room for every n-gram of `tokens` tokens at a load factor of at most 1/2
 * (the prose view's own n-grams, when it has some, may fill it further but never up), and a queue
 * (hash + weight) long enough for a sentence of all of them, twice (the view's apart).
 */
function prepareScoring(tokens: u32): void {
  let entries: u32 = 64;
  const most = (tokens + 1) * gramsPerToken();
  while (entries <= most * 2) entries <<= 1;
  if (!reserveScoring(entries, most * 2)) unreachable();
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

/** Queue the n-grams that end in a token (`id`, `coarse`) after context (p1..p3, c1..c4). */
@inline function queueGrams(id: u32, coarse: u32, p1: u32, p2: u32, p3: u32, c1: u32, c2: u32, c3: u32, c4: u32): void {
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
}

/**
 * Score every sentence with the weights of language `lang`, and the document (the prose view, see
 * prose.ts) with those of `viewLang`; when `emit`, also write the document's n-gram indexes.
 */
export function scoreSentences(nSent: u32, lang: u32, viewLang: u32, emit: bool): f32 {
  emitting = emit;
  nFeat = 0;
  const salt = langSalt(lang);
  const viewSalt = langSalt(viewLang);
  // The text is the view: every n-gram is the document's too.
  const inText = viewIsText();
  docSum = 0;
  docGrams = 0;
  prepareScoring(tokenCount());
  // The n-gram context of the prose view's sentence: its last three ids (masked channels) and four
  // coarse ids (0: none; BOS_ID opens a sentence). The sentence's own is p1..p3, c1..c4 below.
  let v1: u32 = BOS_ID;
  let v2: u32 = 0;
  let v3: u32 = 0;
  let w1: u32 = BOS_ID;
  let w2: u32 = 0;
  let w3: u32 = 0;
  let w4: u32 = 0;
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
      const inView = !inText && (info & Info.IN_VIEW) != 0;
      if (inView && (info & Info.VIEW_START) != 0) {
        v1 = BOS_ID; v2 = 0; v3 = 0;
        w1 = BOS_ID; w2 = 0; w3 = 0; w4 = 0;
      }
      const kind = info & Info.KIND_MASK;
      if (kind == Kind.MARKUP) continue;
      let id: u32 = 0;
      let coarse: u32 = 0;
      let viewId: u32 = 0;
      let viewCoarse: u32 = 0;
      if (kind == Kind.WORD) {
        const h = tokHash(t);
        const letters = info >>> Info.LETTERS_SHIFT;
        const capital = (info & Info.CAP) != 0;
        const bits = phraseBits(t, t1, salt, s, letters == 1 && capital && prevInnerCapital, letters <= 2 && capital);
        prevInnerCapital = capital && !firstWord;
        const common = (bits & Lex.VOCAB) != 0;
        id = common ? h : tokShape(t);
        coarse = (bits & Lex.FUNC) != 0 ? h : COARSE_X;
        if (inView) {
          // The view is read in its own language when the text's was forced to none (index.ts).
          const viewBits = viewSalt == salt ? bits : lexGet(h ^ viewSalt);
          viewId = (viewBits & Lex.VOCAB) != 0 ? h : tokShape(t);
          viewCoarse = (viewBits & Lex.FUNC) != 0 ? h : COARSE_X;
        }
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
      if (kind != Kind.WORD) {
        viewId = id;
        viewCoarse = coarse;
      }
      // One queue entry for both readers when the view reads the same n-grams here.
      const shared =
        inText ||
        (inView && viewId == id && viewCoarse == coarse && v1 == p1 && v2 == p2 && v3 == p3 && w1 == c1 && w2 == c2 && w3 == c3 && w4 == c4);
      readers = shared ? FOR_SENTENCE | FOR_DOCUMENT : FOR_SENTENCE;
      queueGrams(id, coarse, p1, p2, p3, c1, c2, c3, c4);
      if (inView && !shared) {
        readers = FOR_DOCUMENT;
        queueGrams(viewId, viewCoarse, v1, v2, v3, w1, w2, w3, w4);
      }
      p3 = p2; p2 = p1; p1 = id;
      c4 = c3; c3 = c2; c2 = c1; c1 = coarse;
      if (inView) {
        v3 = v2; v2 = v1; v1 = viewId;
        w4 = w3; w3 = w2; w2 = w1; w1 = viewCoarse;
      }
    }
    flushGrams();
    store<f32>(sentFeatAddr(s, SF.NGRAMS), <f32>grams);
    store<f32>(sentFeatAddr(s, SF.SCORE), sum);
  }
  if (viewCloses()) {
    // The full stop that closes the view's last sentence (a text cut off mid-way).
    const stop = punctHash(Ch.DOT);
    readers = FOR_DOCUMENT;
    queueGrams(stop, stop, v1, v2, v3, w1, w2, w3, w4);
    flushGrams();
  }
  docSet(Doc.NGRAMS, docGrams);
  docSet(Doc.SCORE_BITS, reinterpret<u32>(docSum));
  docSet(Doc.FEATS, nFeat);
  readers = FOR_SENTENCE | FOR_DOCUMENT;
  emitting = false;
  return docSum;
}

/** Language of the text from stop-word hits: 0 English, 1 Spanish, 2 other. */
export function detectLanguage(): u32 {
  return languageOf(docGet(Doc.WORDS), docGet(Doc.EN_STOP), docGet(Doc.ES_STOP), docGet(Doc.OTHER_STOP));
}

/** Language of the prose view (prose.ts), the same way. */
export function viewLanguage(): u32 {
  return viewIsText() ? detectLanguage() : languageOf(viewWords(), viewEnStop(), viewEsStop(), viewOtherStop());
}

/** Language from `words` words with `en`, `es` and `other` stop words: 0 English, 1 Spanish, 2 other. */
function languageOf(words: u32, en: u32, es: u32, other: u32): u32 {
  const best = Math.max(en, es);
  // Running prose in either language has 25-45% stop words; below 12% it is neither. Function words
  // of Portuguese, Italian, Catalan and French (none shared with English or Spanish) outvoting them
  // mean a neighbouring language, not Spanish.
  if (words == 0 || <f64>best < <f64>words * 0.12 || best < 2) return 2;
  if (other >= best) return 2;
  return en >= es ? 0 : 1;
}
