/**
 * A bound on the sentences of one file's text, checked before it is scored (issue 23). Scoring
 * keeps a record per sentence, so memory and time grow with the number of sentences, not the
 * bytes: 10 MB of "Go. " (2.5M sentences) took a server process to 2.2 GB RSS and held the event
 * loop for seconds; measured here, scoring costs ~1.3 KB and ~10 µs per sentence at its peak.
 * Ordinary prose has one sentence per 60-150 characters (10 MiB: ~100k).
 *
 * The count is a cheap over-estimate of the engine's sentences: runs of terminal punctuation
 * followed by whitespace (or the end), plus runs of line breaks (the engine may end a sentence at a
 * line break: list items, headings, hard-wrapped lines).
 */
import { limitError } from './errors.ts';

/** Most sentence ends one file's text may have: 2.5x ordinary prose at the 10 MiB text limit (~390 MB RSS to score). */
export const DEFAULT_MAX_TEXT_SENTENCES = 250_000;
/** From this many sentence ends on, a text must also average MIN_CHARS_PER_SENTENCE... */
export const DENSE_SENTENCES_FROM = 20_000;
/**
 * ...characters per sentence or more: tiny sentences cost the same per sentence as long ones, so
 * 1 MB of "Go. " (262k sentences, ~3 s to score) is refused while 20k of them (80 KB) is scored.
 */
export const MIN_CHARS_PER_SENTENCE = 25;

enum C {
  TAB = 9,
  LF = 10,
  CR = 13,
  SPACE = 32,
  BANG = 33,
  DOT = 46,
  QMARK = 63,
  NBSP = 0xa0,
  ELLIPSIS = 0x2026,
  IDEO_STOP = 0x3002,
  FW_EXCL = 0xff01,
  FW_QMARK = 0xff1f,
}

const isTerminal = (c: number) =>
  c === C.DOT || c === C.BANG || c === C.QMARK || c === C.ELLIPSIS || c === C.IDEO_STOP || c === C.FW_EXCL || c === C.FW_QMARK;
const isLineBreak = (c: number) => c === C.LF || c === C.CR || c === 0x2028 || c === 0x2029;
const isSpace = (c: number) => c === C.SPACE || c === C.TAB || c === C.NBSP || isLineBreak(c);

/**
 * Sentence ends of `text`, counted as the module comment says (linear, no allocation); the count
 * stops just past `stopAbove`, so a dense text is refused after reading only its start.
 */
export function countSentenceEnds(text: string, stopAbove = Number.POSITIVE_INFINITY): number {
  let ends = 0;
  const n = text.length;
  for (let i = 0; i < n && ends <= stopAbove; i++) {
    const c = text.charCodeAt(i);
    if (isTerminal(c)) {
      let j = i + 1;
      while (j < n && isTerminal(text.charCodeAt(j))) j++;
      if (j === n || isSpace(text.charCodeAt(j))) ends++;
      i = j - 1;
    } else if (isLineBreak(c)) {
      let j = i + 1;
      while (j < n && isLineBreak(text.charCodeAt(j))) j++;
      ends++;
      i = j - 1;
    }
  }
  return ends;
}

/** The most sentence ends a text of `chars` characters may have. */
export function sentenceCap(chars: number, maxSentences: number = DEFAULT_MAX_TEXT_SENTENCES): number {
  return Math.min(maxSentences, Math.max(DENSE_SENTENCES_FROM, Math.floor(chars / MIN_CHARS_PER_SENTENCE)));
}

/** `count` (the count stops just past `limit`) and `limit` when `text` has too many sentence ends, or null when it may be scored. */
export function excessSentences(text: string, maxSentences: number = DEFAULT_MAX_TEXT_SENTENCES): { count: number; limit: number } | null {
  const limit = sentenceCap(text.length, maxSentences);
  // Cannot be over the cap (one end needs at least one character): skip the scan.
  if (text.length <= limit) return null;
  const count = countSentenceEnds(text, limit);
  return count > limit ? { count, limit } : null;
}

/** Throws extract_limit (`text_sentences`) when `text` has too many sentences, or too many for its length. */
export function checkSentences(text: string, maxSentences: number): void {
  const excess = excessSentences(text, maxSentences);
  if (excess) {
    const cap = excess.limit;
    throw limitError('text_sentences', cap, `the text has more than ${cap} sentences, the limit for its length`);
  }
}
