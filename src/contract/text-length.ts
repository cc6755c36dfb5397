/**
 * The one bound on a text's length (issue 40), shared by a detection, a batch file of any format,
 * a calibration text and the wasm core. Scoring is one synchronous call per text: its length is
 * what bounds how long every other request of the process waits, and how much memory it takes.
 * Lengths are UTF-16 code units (JavaScript's `length`), what the core reads.
 */
import { CodedError } from './errors';

/**
 * 512 Ki characters (about 85k English words, a 170-page book) by default (MAX_TEXT_CHARS). On this
 * 2-core machine under other sessions' load (bench/text-length.ts, docs/limits.md), one analysis of
 * 512 Ki took at most 0.5 s (CJK, the slowest shape), and another key's detection beside it waited
 * 0.5-1.1 s (over 1 s once in five runs, at load averages of 5-8): about the 1 s it may wait (issue
 * 40); at 1 Mi that wait reached 2.4 s.
 */
export const DEFAULT_MAX_TEXT_CHARS = 524_288;

/**
 * The most MAX_TEXT_CHARS may be set to (4 Mi): the core's regions for a text this long, and its
 * n-gram set for a text of one-letter words, stay under 2 GiB of linear memory. Past 16 Mi the
 * core's pointers passed 2^31 and the text crashed it (issue 40 item 1).
 */
export const MAX_TEXT_CHARS_CEILING = 4_194_304;

/** A text longer than the limit, as sent or once normalised (NFKC may lengthen a text): 413 `text_too_long`. */
export class TextTooLongError extends CodedError<'text_too_long'> {
  constructor(length: number, limit: number) {
    super('text_too_long', 413, `the text has ${length} characters; the limit is ${limit}`, { count: length, limit });
  }
}
