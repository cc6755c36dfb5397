/**
 * The one word definition shared by the 20-word minimum, metering and the batch `words` field:
 * a word is a run of Unicode letters, marks or digits that starts with a letter or digit (so an emoji's
 * variation selector is not a word); apostrophes (' ’) and hyphens between two
 * such characters stay inside the word ("don't", "well-known", "3.5" counts as two: 3 and 5).
 */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:['’‐\-][\p{L}\p{M}\p{N}]+)*/gu;

/** Count words by the project's single definition. */
export function countWords(text: string): number {
  let n = 0;
  WORD.lastIndex = 0;
  while (WORD.exec(text) !== null) n++;
  return n;
}
