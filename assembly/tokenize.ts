// Pass 1: one left-to-right scan of the UTF-16 text that writes tokens, sentences and paragraphs,
// all with offsets in code units of the text as submitted. Boundary decisions are taken when the
// next token arrives, because "Dr. Smith", "e.g. this" and hard-wrapped lines need a look ahead.
import { Ch, Cls, classify, homoglyph, lower, isUpper, baseLetter } from './chars';
import { FNV_BASIS, fnvStep, mix32, combine } from './hash';
import { Lex, lexGet, langSalt } from './lexicon';
import {
  textPtr, tokCap, setToken, tokInfo, tokHash, tokEnd, tokStart, setSentField, sentField,
  setParaField, paraField, docSet, docGet, docInc, DOC_COUNTERS,
} from './layout';
import { Kind, Info, SentFlag, Doc, SR, PR } from './token';
import {
  Pending, nextPending, pendingAfterClosingMark, viewWhole, viewBegin, viewArrive, viewNewline, viewTerminal, viewClosingMark, viewStopWords, viewPending, viewPrev,
  viewPrevPrev, viewIsText, viewPieces, pieceStart, pieceEnd, viewFirstStart, viewFirstEnd, markViewUnread, inView, viewStarted,
} from './prose';

/** Hash seeds for token classes that are not words. */
export const SHAPE_SALT: u32 = 0x2f0b3c1d;
export const NUM_ID: u32 = 0x6a09e667;
export const SYMBOL_ID: u32 = 0x3c6ef372;
const PUNCT_SALT: u32 = 0x510e527f;

let len: u32 = 0;
let homoMode = false;
/** Every Cyrillic/Greek letter of the text is a Latin look-alike: a disguise, even in words with no Latin letter. */
let allLookAlikes = false;
let nTok: u32 = 0;
let nSent: u32 = 0;
let nPara: u32 = 0;
let sentOpen = false;
let paraOpen = false;
let pending: u32 = Pending.NONE;
let sawSpace = false;
let newlines: u32 = 0;
let lineStart = true;
let lineFlags: u32 = 0;
let lastTerminal: u32 = 0;
let paraWords: u32 = 0;
let paraSents: u32 = 0;

// Results of scanWord.
let wHash: u32 = 0;
let wShape: u32 = 0;
let wInfo: u32 = 0;

@inline function cu(i: u32): u32 {
  return <u32>load<u16>(textPtr + (<usize>i << 1));
}

/** Code point at i (surrogate pairs combined); its length in code units goes to cpLen. */
let cpLen: u32 = 1;
function cpAt(i: u32): u32 {
  const c = cu(i);
  cpLen = 1;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < len) {
    const d = cu(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) { cpLen = 2; return 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00); }
  }
  return c;
}

/** Class of a code point after homoglyph mapping (when the text is mostly Latin). */
@inline function clsOf(c: u32): u32 {
  if (homoMode && homoglyph(c) != 0) return Cls.LETTER;
  return classify(c);
}

/** Scan a word or number starting at i; returns its end and sets wHash, wShape, wInfo. */
export function scanWord(i: u32, end: u32): u32 {
  let h = FNV_BASIS;
  let letters: u32 = 0;
  let uppers: u32 = 0;
  let last1: u32 = 0;
  let last2: u32 = 0;
  let info: u32 = 0;
  let mapped: u32 = 0;
  let latinLetters: u32 = 0;
  let j = i;
  let first = true;
  let isNum = false;
  while (j < end) {
    // Fast path for ASCII letters (most of the text), exactly what the general path below computes.
    const unit = cu(j);
    const folded = unit | 32;
    if (unit < 128 && folded >= Ch.LA && folded <= Ch.LZ && !homoMode) {
      if (first) {
        info |= unit != folded ? Info.CAP : Info.LOWER_START;
        first = false;
      }
      if (unit != folded) uppers++;
      h = fnvStep(h, folded);
      letters++;
      last2 = last1;
      last1 = folded;
      j++;
      continue;
    }
    let c = cpAt(j);
    const n = cpLen;
    let cls: u32 = classify(c);
    if (homoMode) {
      const g = homoglyph(c);
      if (g != 0) { c = g; cls = Cls.LETTER; mapped++; }
      else if (cls == Cls.LETTER && c < 0x250) latinLetters++;
    }
    if (cls == Cls.LETTER || cls == Cls.DIGIT) {
      if (first) {
        isNum = cls == Cls.DIGIT;
        if (isUpper(c)) info |= Info.CAP;
        else if (cls == Cls.LETTER) info |= Info.LOWER_START;
        first = false;
      }
      const lc = lower(c);
      if (lc != c) uppers++;
      h = fnvStep(h, lc);
      letters++;
      last2 = last1;
      last1 = baseLetter(lc);
      j += n;
      continue;
    }
    if (cls == Cls.MARK) { j += n; continue; }
    if (cls == Cls.INVISIBLE) {
      // Only between two letters is it a disguise ("wo\u200Brd"); at a word's end it is stray.
      if (j + n < end) {
        const after = clsOf(cpAt(j + n));
        if (after == Cls.LETTER || after == Cls.DIGIT || after == Cls.MARK) info |= Info.INVISIBLE;
      }
      j += n;
      continue;
    }
    // Inner joiners: apostrophes and hyphens between letters, '.' and ',' between digits.
    if (j + n < end) {
      const next = clsOf(cpAt(j + n));
      cpLen = n;
      const joinsWord = (cls == Cls.APOS || cls == Cls.HYPHEN) && (next == Cls.LETTER || next == Cls.DIGIT);
      const joinsNum = isNum && (c == Ch.DOT || c == Ch.COMMA) && next == Cls.DIGIT;
      if (joinsWord || joinsNum) {
        if (cls == Cls.APOS) { h = fnvStep(h, Ch.APOS); info |= Info.APOS; }
        else h = fnvStep(h, c == Ch.COMMA ? Ch.DOT : (cls == Cls.HYPHEN ? Ch.HYPHEN : c));
        j += n;
        continue;
      }
    }
    break;
  }
  // A look-alike counts as a disguise inside a word that also has Latin letters ("wоrd"), or anywhere
  // when every Cyrillic/Greek letter of the text is a look-alike; a quoted Russian name is not one.
  if (mapped > 0 && (latinLetters > 0 || allLookAlikes)) info |= Info.HOMOGLYPH;
  if (letters > 1 && uppers == letters) info |= Info.ALLCAPS;
  if (letters > 255) letters = 255;
  const bucket: u32 = letters <= 3 ? 0 : letters <= 6 ? 1 : letters <= 9 ? 2 : 3;
  wHash = h;
  wShape = isNum ? NUM_ID : combine(SHAPE_SALT + bucket, (last2 << 16) | last1);
  wInfo = info | (isNum ? Kind.NUM : Kind.WORD) | (letters << Info.LETTERS_SHIFT);
  return j;
}

function closeSentence(): void {
  if (!sentOpen) return;
  setSentField(nSent, SR.END, tokEnd(nTok - 1));
  setSentField(nSent, SR.TOK1, nTok);
  setSentField(nSent, SR.PARA, nPara);
  nSent++;
  paraSents++;
  sentOpen = false;
  pending = Pending.NONE;
}

function closeParagraph(): void {
  if (!paraOpen) return;
  setParaField(nPara, PR.END, tokEnd(nTok - 1));
  setParaField(nPara, PR.WORDS, paraWords);
  setParaField(nPara, PR.SENTENCES, paraSents);
  nPara++;
  paraOpen = false;
}

/** Boundary decisions taken when a token arrives; then append it (and open a sentence if needed). */
function arrive(start: u32, end: u32, hash: u32, shape: u32, info: u32, closing: bool, opens: bool): void {
  if (nTok >= tokCap) return;
  const kind = info & Info.KIND_MASK;
  const lowerWord = kind == Kind.WORD && (info & Info.LOWER_START) != 0;
  if (sentOpen) {
    let close = false;
    if (newlines >= 2) close = true;
    else if (newlines == 1) close = !lowerWord;
    else if (pending != Pending.NONE) {
      const next = nextPending(pending, sawSpace, closing, lowerWord, kind == Kind.NUM);
      if (next == Pending.CLOSE) close = true;
      else pending = next;
    }
    if (close) closeSentence();
  }
  if (newlines >= 2 || (newlines == 1 && !lowerWord)) closeParagraph();
  if (lineStart) info |= Info.LINE_START;
  info = viewWhole ? info | Info.IN_VIEW : viewArrive(nTok, start, end, info, closing, opens, sawSpace);
  newlines = 0;
  sawSpace = false;
  lineStart = false;
  if (!sentOpen && opens) {
    setSentField(nSent, SR.START, start);
    setSentField(nSent, SR.TOK0, nTok);
    setSentField(nSent, SR.FLAGS, lineFlags);
    sentOpen = true;
    if (!paraOpen) {
      setParaField(nPara, PR.START, start);
      paraOpen = true;
      paraWords = 0;
      paraSents = 0;
    }
  }
  setToken(nTok, start, end, hash, shape, info);
  nTok++;
  if (kind == Kind.WORD || kind == Kind.NUM || kind == Kind.CJK) {
    docInc(Doc.WORDS);
    if (paraOpen) paraWords++;
  }
}

/**
 * Strength of a sentence end at the '.' just arrived, given the token before it (`prev`) and the
 * one before that (`before`); -1: none. The text's own tokens, or the prose view's (prose.ts).
 */
function periodStrength(prev: i32, before: i32): u32 {
  if (prev < 0) return Pending.STRONG;
  const info = tokInfo(prev);
  if ((info & Info.KIND_MASK) != Kind.WORD || tokEnd(prev) != tokStart(nTok - 1)) return Pending.STRONG;
  const letters = info >>> Info.LETTERS_SHIFT;
  const bits = lexGet(tokHash(prev) ^ langSalt(2));
  if ((bits & Lex.TITLE) != 0) return Pending.NEVER; // titles before names: Dr. Sr.
  if ((bits & Lex.ABBREV) != 0) return Pending.WEAK;
  if (letters == 1) {
    // "e.g." / "U.S.": a single letter glued to a previous '.'; "J. K. Rowling": an initial.
    if (before >= 0 && tokEnd(before) == tokStart(prev) && (tokInfo(before) & Info.KIND_MASK) == Kind.PUNCT) return Pending.NEVER;
    if ((info & Info.CAP) != 0 && tokHash(prev) != fnvStep(FNV_BASIS, 105)) return Pending.NEVER;
    if ((info & Info.LOWER_START) != 0) return Pending.WEAK; // "p. m.", "a. C."
  }
  return Pending.STRONG;
}

@inline function isClosingChar(c: u32): bool {
  return c == Ch.DQUOTE || c == Ch.APOS || c == Ch.RPAREN || c == Ch.RBRACKET || c == Ch.RBRACE ||
    c == Ch.RDQUO || c == Ch.RSQUO || c == Ch.RAQUO || c == Ch.STAR || c == Ch.UNDERSCORE;
}

@inline function normPunct(c: u32): u32 {
  if (c == Ch.LDQUO || c == Ch.RDQUO || c == Ch.LAQUO || c == Ch.RAQUO || c == 0x201e) return Ch.DQUOTE;
  if (c == Ch.LSQUO || c == Ch.RSQUO || c == 0x201a) return Ch.APOS;
  return c;
}

/** A space or line break at i; `limit` and past it read as a space. */
@inline function isSpaceAt(i: u32, limit: u32): bool {
  if (i >= limit || i >= len) return true;
  const k = classify(cpAt(i));
  return k == Cls.SPACE || k == Cls.NEWLINE;
}

/** What markupLength found: a heading mark, a list mark, or a quote mark. */
let markupFlag: u32 = 0;

/**
 * Line-start markup at i: '#' headings, bullets, '1.' numbering and '>' quotes; returns its length
 * (0: none) and sets markupFlag. `limit` and what follows read as a space.
 */
function markupLength(i: u32, limit: u32): u32 {
  const c = cu(i);
  if (c == Ch.HASH) {
    let j = i;
    while (j < limit && cu(j) == Ch.HASH) j++;
    markupFlag = SentFlag.HEADING;
    return j - i <= 6 && isSpaceAt(j, limit) ? j - i : 0;
  }
  if ((c == Ch.HYPHEN || c == Ch.STAR || c == Ch.PLUS || c == Ch.BULLET || c == 0x2023 || c == 0x25e6 || c == Ch.GT) && i + 1 < len && isSpaceAt(i + 1, limit)) {
    markupFlag = c == Ch.GT ? 0 : SentFlag.LIST;
    return 1;
  }
  if (c >= Ch.D0 && c <= Ch.D9) {
    let j = i;
    while (j < limit && cu(j) >= Ch.D0 && cu(j) <= Ch.D9 && j - i < 3) j++;
    if (j < limit && (cu(j) == Ch.DOT || cu(j) == Ch.RPAREN) && isSpaceAt(j + 1, limit)) {
      markupFlag = SentFlag.LIST;
      return j + 1 - i;
    }
  }
  return 0;
}

/** Line-start markup at i (see markupLength), counted; returns chars consumed. */
function lineMarkup(i: u32): u32 {
  const m = markupLength(i, len);
  if (m == 0) return 0;
  lineFlags |= markupFlag;
  if (markupFlag == SentFlag.HEADING) docInc(Doc.HEADINGS);
  else if (markupFlag == SentFlag.LIST) docInc(Doc.LIST_ITEMS);
  return m;
}

let latin: u32 = 0;
let other: u32 = 0;
let lookAlikes: u32 = 0;

/** Count Latin letters, Cyrillic/Greek letters and their Latin look-alikes in text[from, to). */
function countScripts(from: u32, to: u32): void {
  for (let i = from; i < to; i++) {
    const c = cu(i);
    if ((c | 32) >= Ch.LA && (c | 32) <= Ch.LZ) latin++;
    else if (c >= 0xc0 && c <= 0x24f) latin++;
    else if (c >= 0x370 && c <= 0x4ff) {
      other++;
      if (homoglyph(c) != 0) lookAlikes++;
    }
  }
}

// Real Russian or Greek uses many letters with no Latin twin; a disguise uses look-alikes only.
@inline function allLookAlikesOf(): bool { return other > 0 && latin > 0 && lookAlikes * 10 >= other * 9; }
@inline function homoModeOf(all: bool): bool { return other > 0 && (all || latin >= other * 3); }

/** Pre-pass: decide whether Cyrillic/Greek look-alikes should be read as Latin (mostly-Latin text). */
function decideHomoglyphMode(): void {
  latin = 0; other = 0; lookAlikes = 0;
  countScripts(0, len);
  docSet(Doc.LATIN, latin);
  docSet(Doc.OTHER_SCRIPT, other);
  allLookAlikes = allLookAlikesOf();
  homoMode = homoModeOf(allLookAlikes);
}

/**
 * After the scan: the prose view is read as its own text would be, or marked unread (prose.ts).
 * Its first token must not read as a line-start mark at the start of the view's text, and the
 * look-alike letters must be read the same way when only its pieces are counted.
 */
function checkView(): void {
  if (viewIsText()) return;
  const first = viewFirstStart();
  if (viewStarted() && markupLength(first, viewFirstEnd()) > 0) markViewUnread();
  if (docGet(Doc.OTHER_SCRIPT) == 0) return;
  latin = 0; other = 0; lookAlikes = 0;
  const n = viewPieces();
  for (let k: u32 = 0; k < n; k++) countScripts(pieceStart(k), pieceEnd(k));
  const all = allLookAlikesOf();
  if (all != allLookAlikes || homoModeOf(all) != homoMode) markViewUnread();
}

/**
 * Tokenize text[0, n) into tokens, sentences and paragraphs, following the prose view of `pieces`
 * pieces (or WHOLE) closed by a full stop when `close` (prose.ts). Returns the number of sentences.
 */
export function tokenize(n: u32, pieces: u32, close: bool): u32 {
  len = n;
  viewBegin(pieces, close);
  nTok = 0; nSent = 0; nPara = 0;
  sentOpen = false; paraOpen = false; pending = Pending.NONE;
  sawSpace = false; newlines = 0; lineStart = true; lineFlags = 0; lastTerminal = 0;
  for (let k: u32 = 0; k < DOC_COUNTERS; k++) docSet(k, 0);
  decideHomoglyphMode();
  const saltEn = langSalt(0);
  const saltEs = langSalt(1);
  const saltAny = langSalt(2);
  let i: u32 = 0;
  let prevWasCR = false;
  while (i < len) {
    const c = cpAt(i);
    const n1 = cpLen;
    const cls = clsOf(c);
    if (cls == Cls.NEWLINE) {
      if (!(c == Ch.LF && prevWasCR)) { newlines++; docInc(Doc.LINES); }
      viewNewline(i);
      prevWasCR = c == Ch.CR;
      lineStart = true;
      lineFlags = 0;
      sawSpace = true;
      i += n1;
      continue;
    }
    prevWasCR = false;
    if (cls == Cls.SPACE) { sawSpace = true; i += n1; continue; }
    if (cls == Cls.INVISIBLE) {
      // Between words: stray (a zero-width space pasted from the web), not a disguise.
      if (!(i == 0 && c == 0xfeff)) docInc(Doc.STRAY_INVISIBLES);
      i += n1;
      continue;
    }
    if (lineStart) {
      const m = lineMarkup(i);
      if (m > 0) {
        arrive(i, i + m, SYMBOL_ID, 0, Kind.MARKUP, false, false);
        lineStart = false;
        i += m;
        continue;
      }
    }
    if (cls == Cls.LETTER || cls == Cls.DIGIT) {
      const end = scanWord(i, len);
      arrive(i, end, wHash, wShape, wInfo, false, true);
      if ((wInfo & Info.HOMOGLYPH) != 0) docInc(Doc.HOMOGLYPHS);
      if ((wInfo & Info.INVISIBLE) != 0) docInc(Doc.INVISIBLES);
      if ((wInfo & Info.CAP) != 0) docInc(Doc.CAP_WORDS);
      if ((wInfo & Info.KIND_MASK) == Kind.WORD) {
        const en = (lexGet(wHash ^ saltEn) & Lex.STOP) != 0;
        const es = (lexGet(wHash ^ saltEs) & Lex.STOP) != 0;
        const other = (lexGet(wHash ^ saltAny) & Lex.STOP) != 0;
        if (en) docInc(Doc.EN_STOP);
        if (es) docInc(Doc.ES_STOP);
        if (other) docInc(Doc.OTHER_STOP);
        if (!viewWhole && inView(nTok - 1)) viewStopWords(en, es, other);
      }
      i = end;
      continue;
    }
    if (cls == Cls.CJK) {
      arrive(i, i + n1, mix32(c), 0, Kind.CJK, false, true);
      i += n1;
      continue;
    }
    if (cls == Cls.SYMBOL) {
      let j = i + n1;
      // Emoji sequences: modifiers, variation selectors and ZWJ-joined parts stay one token.
      while (j < len) {
        const d = cpAt(j);
        const k = classify(d);
        if (k == Cls.MARK || d == 0x200d) { j += cpLen; continue; }
        if (k == Cls.SYMBOL && j > 0 && cu(j - 1) == 0x200d) { j += cpLen; continue; }
        break;
      }
      arrive(i, j, SYMBOL_ID, 0, Kind.SYMBOL, false, true);
      i = j;
      continue;
    }
    // Punctuation and markup.
    if (c == Ch.STAR || c == Ch.UNDERSCORE || c == Ch.BACKTICK || c == Ch.PIPE || c == Ch.TILDE) {
      let j = i + 1;
      while (j < len && cu(j) == c) j++;
      if (j - i >= 2 && (c == Ch.STAR || c == Ch.UNDERSCORE)) docInc(Doc.BOLD);
      arrive(i, j, SYMBOL_ID, c, Kind.MARKUP, true, true);
      i = j;
      continue;
    }
    if (cls == Cls.TERMINAL) {
      let j = i + n1;
      let code = c;
      if (c == Ch.DOT) {
        while (j < len && cu(j) == Ch.DOT) j++;
        if (j - i >= 2) code = Ch.ELLIPSIS;
      }
      arrive(i, j, mix32(code + PUNCT_SALT), code, Kind.PUNCT, false, true);
      let strength: u32 = Pending.STRONG;
      if (code == Ch.DOT) strength = periodStrength(<i32>nTok - 2, <i32>nTok - 3);
      else if (code == Ch.ELLIPSIS) strength = Pending.WEAK;
      if (sentOpen) {
        if (c == Ch.QMARK || c == Ch.FW_QMARK) setSentField(nSent, SR.FLAGS, sentField(nSent, SR.FLAGS) | SentFlag.QUESTION);
        if (c == Ch.BANG || c == Ch.FW_EXCL) setSentField(nSent, SR.FLAGS, sentField(nSent, SR.FLAGS) | SentFlag.EXCLAIM);
      }
      // CJK full stops (and any end mark right before CJK text) end a sentence without a following space.
      const cjkNext = j < len && classify(cpAt(j)) == Cls.CJK;
      const strong = code == Ch.IDEO_STOP || code == Ch.FW_EXCL || code == Ch.FW_QMARK;
      if (strong || cjkNext) { pending = Pending.STRONG; sawSpace = true; }
      else pending = strength;
      if (!viewWhole && inView(nTok - 1)) {
        const viewStrength = code == Ch.DOT ? periodStrength(viewPrev(), viewPrevPrev()) : code == Ch.ELLIPSIS ? Pending.WEAK : Pending.STRONG;
        viewTerminal(code, viewStrength, strong, cjkNext, j);
      }
      lastTerminal = code;
      i = j;
      continue;
    }
    const p = normPunct(c);
    const keep = pending;
    const keepView = viewWhole ? Pending.NONE : viewPending();
    arrive(i, i + n1, mix32(p + PUNCT_SALT), p, Kind.PUNCT, isClosingChar(c), true);
    const quote = p == Ch.DQUOTE || p == Ch.APOS;
    if (keep != Pending.NONE && pending != Pending.NONE && isClosingChar(c)) pending = pendingAfterClosingMark(keep, quote, lastTerminal);
    if (!viewWhole && isClosingChar(c) && inView(nTok - 1)) viewClosingMark(keepView, quote);
    i += n1;
  }
  closeSentence();
  closeParagraph();
  checkView();
  docSet(Doc.TOKENS, nTok);
  docSet(Doc.SENTENCES, nSent);
  docSet(Doc.PARAGRAPHS, nPara);
  return nSent;
}

/** The hash of a punctuation token with code `code` (the full stop that closes a prose view). */
export function punctHash(code: u32): u32 {
  return mix32(code + PUNCT_SALT);
}

/** Number of tokens of the last tokenize() call. */
export function tokenCount(): u32 {
  return nTok;
}

let lastPhraseWords: u32 = 0;
let lastPhraseFirst: u32 = 0;

/** Words of the last phrase hashed by phraseHash. */
export function phraseWords(): u32 {
  return lastPhraseWords;
}

/** Hash of the first word of the last phrase hashed by phraseHash. */
export function phraseFirstWord(): u32 {
  return lastPhraseFirst;
}

/** Hash of a phrase (words joined as the scorer joins them); 0 when it has no word. */
export function phraseHash(n: u32): u32 {
  len = n;
  homoMode = false;
  allLookAlikes = false;
  let h: u32 = 0;
  let i: u32 = 0;
  let words: u32 = 0;
  while (i < n) {
    const cls = classify(cpAt(i));
    if (cls == Cls.LETTER || cls == Cls.DIGIT) {
      const end = scanWord(i, n);
      if (words == 0) lastPhraseFirst = wHash;
      h = words == 0 ? wHash : combine(h, wHash);
      words++;
      i = end;
    } else i += cpLen;
  }
  lastPhraseWords = words;
  return h;
}

/** Suppress unused warnings for values read by the host. */
export function paragraphWords(p: u32): u32 {
  return paraField(p, PR.WORDS);
}
export function docCounter(k: u32): u32 {
  return docGet(k);
}
