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
import { DEFAULT_MAX_TEXT_SENTENCES } from './limits.ts';

export { DEFAULT_MAX_TEXT_SENTENCES } from './limits.ts';
/** From this many sentence ends on, a text must also average MIN_CHARS_PER_SENTENCE... */
export const DENSE_SENTENCES_FROM = 20_000;
/**
 * ...characters per sentence or more: tiny sentences cost the same per sentence as long ones, so
 * 1 MB of "Go. " (262k sentences, ~3 s to score) is refused while 20k of them (80 KB) is scored.
 */
export const MIN_CHARS_PER_SENTENCE = 25;

// Code points, as literals: the loop below reads every character of texts up to 10 MiB.
const DOT = 0x2e;
const BANG = 0x21;
const QMARK = 0x3f;
const ELLIPSIS = 0x2026;
const IDEO_STOP = 0x3002;
const FW_BANG = 0xff01;
const FW_QMARK = 0xff1f;
const LF = 0x0a;
const CR = 0x0d;
const LINE_SEP = 0x2028;
const PARA_SEP = 0x2029;

function isTerminal(c: number): boolean {
  return c === DOT || c === BANG || c === QMARK || c === ELLIPSIS || c === IDEO_STOP || c === FW_BANG || c === FW_QMARK;
}
function isLineBreak(c: number): boolean {
  return c === LF || c === CR || c === LINE_SEP || c === PARA_SEP;
}
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0xa0 || isLineBreak(c);
}

/**
 * Sentence ends of `text`, counted as the module comment says: one pass, each character read once
 * (a regular expression with a lookahead after a run of dots went quadratic on 20k dots: 2 s), no
 * allocation; the count stops just past `stopAbove`, so a dense text is refused after reading only
 * its start. ~10 ms a MB here.
 */
export function countSentenceEnds(text: string, stopAbove = Number.POSITIVE_INFINITY): number {
  let ends = 0;
  const n = text.length;
  let i = 0;
  while (i < n && ends <= stopAbove) {
    const c = text.charCodeAt(i++);
    if (isTerminal(c)) {
      while (i < n && isTerminal(text.charCodeAt(i))) i++;
      if (i === n || isSpace(text.charCodeAt(i))) ends++;
    } else if (isLineBreak(c)) {
      while (i < n && isLineBreak(text.charCodeAt(i))) i++;
      ends++;
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
