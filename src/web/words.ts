/** The project's one word definition, for the live counter (the server counts the same way). */

/** Runs of Unicode letters/digits; inner apostrophes and hyphens keep a word whole. */
export const WORD_RE = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** The fewest words the API accepts for one text. */
export const MIN_WORDS = 20;

/** Number of words in text by WORD_RE. */
export function countWords(text: string): number {
  return text.match(WORD_RE)?.length ?? 0;
}
