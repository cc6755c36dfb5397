// The prose view, read in the same pass as the text. The document score reads the text without its
// presentation: src/detector/score/presentation.ts decides, line by line, what that is and hands
// over the kept pieces ([start, end) offsets, each inside one line) and whether a full stop closes
// the last sentence. The view's text is those pieces joined by single spaces. While the tokenizer
// reads the whole text (sentences, paragraphs and style need it as sent), this file follows the
// view: which tokens are in it, and where the view's sentences start when every line break reads
// as a space, with the same boundary rules as tokenize.ts's arrive(). The scorer then counts the
// document's n-grams over the view's tokens and sentences (score.ts), so the score is exactly what
// a second pass over the view's text gave, without that pass.
//
// The view's tokens are the text's tokens in the pieces as long as nothing outside a piece changes
// how the inside is read. Where it could, the view is marked unread (Doc.VIEW_UNREAD) and the host
// scores the view's text in a pass of its own: a token a piece cuts, a line break inside a piece
// (U+2028, U+2029, U+0085: presentation.ts splits lines at \r and \n only), a line-start mark kept
// in the view (or one the view would read at its own start), or look-alike letters read another
// way once the pieces alone are counted.
import { Ch } from './chars';
import { viewPtr, tokInfo } from './layout';
import { Kind, Info } from './token';

/** How a sentence end mark waits for the next token (tokenize.ts). */
export namespace Pending {
  export const NONE: u32 = 0;
  export const STRONG: u32 = 1;
  export const WEAK: u32 = 2;
  export const NEVER: u32 = 3;
  /** What nextPending answers when the sentence closes before the token. */
  export const CLOSE: u32 = 4;
}

/**
 * A sentence end mark is `pending` when a token arrives on the same line: CLOSE when the sentence
 * ends before it, else what stays pending. `space`: a space since the mark; `closing`: the token is
 * a closing character (a quote, a bracket) that keeps the mark pending. The text's sentences
 * (tokenize.ts arrive) and the view's (viewArrive) follow this one rule.
 */
export function nextPending(pending: u32, space: bool, closing: bool, lowerWord: bool, num: bool): u32 {
  if (!space) return closing ? pending : Pending.NONE;
  if (pending == Pending.STRONG) return Pending.CLOSE;
  if (pending == Pending.WEAK) return lowerWord || num ? pending : Pending.CLOSE;
  return pending;
}

/**
 * The pending end after a closing mark, given `before` (pending before it) and the last end mark
 * `last`: '"Stop!" he shouted.': a quote closing on ! or ? may be followed by a dialogue tag.
 */
export function pendingAfterClosingMark(before: u32, quote: bool, last: u32): u32 {
  return before == Pending.STRONG && quote && (last == Ch.BANG || last == Ch.QMARK) ? Pending.WEAK : before;
}

/** Piece count meaning "no view": the text is the view (nothing taken away). */
export const WHOLE: u32 = 0xffffffff;

let pieces: u32 = 0;
/** The text is its own view (nothing taken away): the tokenizer need not follow it. */
export let viewWhole = true;
let closing = false;
let unread = false;
/** Cursor: the first piece that ends after the last position looked at. */
let at: u32 = 0;
/** Piece of the last token in the view (-1: none yet). */
let lastPiece: i32 = -1;
let sentOpen = false;
let pending: u32 = Pending.NONE;
let lastTerminal: u32 = 0;
/** The last three tokens in the view (token indexes, -1: none), latest first. */
let prev0: i32 = -1;
let prev1: i32 = -1;
let prev2: i32 = -1;
/** Start of the view's first token and the end of its piece. */
let firstStart: u32 = 0;
let firstEnd: u32 = 0;
let words: u32 = 0;
let enStop: u32 = 0;
let esStop: u32 = 0;
let otherStop: u32 = 0;

@inline export function pieceStart(k: u32): u32 { return load<u32>(viewPtr + (<usize>k << 3)); }
@inline export function pieceEnd(k: u32): u32 { return load<u32>(viewPtr + (<usize>k << 3), 4); }

/** Start following a view of `n` pieces (or WHOLE), closed by a full stop when `close`. */
export function viewBegin(n: u32, close: bool): void {
  viewWhole = n == WHOLE;
  pieces = viewWhole ? 0 : n;
  closing = close && !viewWhole;
  unread = false;
  at = 0;
  lastPiece = -1;
  sentOpen = false;
  pending = Pending.NONE;
  lastTerminal = 0;
  prev0 = -1; prev1 = -1; prev2 = -1;
  firstStart = 0; firstEnd = 0;
  words = 0; enStop = 0; esStop = 0; otherStop = 0;
}

/** The text is the view (no pieces were given, or the view could not be read in this pass). */
export function viewIsText(): bool { return viewWhole || unread; }
/** The view could not be read in this pass (see the top of this file). */
export function viewUnread(): bool { return unread; }
/** The view ends with a full stop that the text does not have. */
export function viewCloses(): bool { return closing && !unread; }
/** Mark the view unread: the host scores its text in a pass of its own. */
export function markViewUnread(): void { unread = true; }
/** Pieces of the view (0 when whole). */
export function viewPieces(): u32 { return pieces; }
/** The view has a token. */
export function viewStarted(): bool { return lastPiece >= 0; }
/** Start of the view's first token and the end of its piece (0, 0 when it has none). */
export function viewFirstStart(): u32 { return firstStart; }
export function viewFirstEnd(): u32 { return firstEnd; }
/** Words of the view, and its stop words (en, es, neighbouring languages) for its language. */
export function viewWords(): u32 { return words; }
export function viewEnStop(): u32 { return enStop; }
export function viewEsStop(): u32 { return esStop; }
export function viewOtherStop(): u32 { return otherStop; }
/** The token before the latest one in the view, and the one before that (-1: none). */
export function viewPrev(): i32 { return prev1; }
export function viewPrevPrev(): i32 { return prev2; }
/** The view's sentence end mark waiting for the next token. */
export function viewPending(): u32 { return pending; }

/** Move the cursor to the first piece that ends after `i`. */
@inline function seek(i: u32): void {
  while (at < pieces && pieceEnd(at) <= i) at++;
}

/** A line break read at `i`: one inside a piece is no space in the view's text. */
export function viewNewline(i: u32): void {
  if (viewWhole) return;
  seek(i);
  if (at < pieces && i >= pieceStart(at)) unread = true;
}

/**
 * Token `t` [start, end) arrives (after the text's own boundary decisions) while the view is not
 * the whole text. Returns its info with
 * IN_VIEW (and VIEW_START when it opens one of the view's sentences) when it is in the view.
 * `sawSpace`: the text has a space or line break since the previous token.
 */
export function viewArrive(t: u32, start: u32, end: u32, info: u32, closes: bool, opens: bool, sawSpace: bool): u32 {
  seek(start);
  if (at >= pieces || start < pieceStart(at)) {
    if (at < pieces && end > pieceStart(at)) unread = true;
    return info;
  }
  if (end > pieceEnd(at) || !opens) unread = true;
  const kind = info & Info.KIND_MASK;
  const lowerWord = kind == Kind.WORD && (info & Info.LOWER_START) != 0;
  // Pieces are joined by a space; inside a piece, the view has the text's own characters.
  const space = sawSpace || <i32>at != lastPiece;
  if (lastPiece < 0) {
    firstStart = start;
    firstEnd = pieceEnd(at);
  }
  lastPiece = <i32>at;
  if (sentOpen && pending != Pending.NONE) {
    pending = nextPending(pending, space, closes, lowerWord, kind == Kind.NUM);
    if (pending == Pending.CLOSE) { sentOpen = false; pending = Pending.NONE; }
  }
  if (!sentOpen && opens) {
    sentOpen = true;
    info |= Info.VIEW_START;
  }
  prev2 = prev1; prev1 = prev0; prev0 = <i32>t;
  if (kind == Kind.WORD || kind == Kind.NUM || kind == Kind.CJK) words++;
  return info | Info.IN_VIEW;
}

/** Stop-word hits of the word just arrived, when it is in the view. */
export function viewStopWords(en: bool, es: bool, other: bool): void {
  if (en) enStop++;
  if (es) esStop++;
  if (other) otherStop++;
}

/**
 * A sentence end mark `code` of the view, ending at `end`, arrived with `strength` (read from the
 * view's tokens before it). `cjk`: text in a CJK script follows it directly; in the view, only
 * inside its piece (a piece's end reads as a space).
 */
export function viewTerminal(code: u32, strength: u32, strong: bool, cjk: bool, end: u32): void {
  pending = strong || (cjk && end < pieceEnd(at)) ? Pending.STRONG : strength;
  lastTerminal = code;
}

/**
 * A closing mark `quote` (a quote, or another closing character when false) of the view arrived
 * while `before` was pending: a quote closing on ! or ? may be followed by a dialogue tag.
 */
export function viewClosingMark(before: u32, quote: bool): void {
  if (before == Pending.NONE || pending == Pending.NONE) return;
  pending = pendingAfterClosingMark(before, quote, lastTerminal);
}

/** The token `t` is in the view. */
@inline export function inView(t: u32): bool {
  return (tokInfo(t) & Info.IN_VIEW) != 0;
}
