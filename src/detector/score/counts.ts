/**
 * The wasm core's per-sentence counts by name: what decide/ and explain/ read of a sentence, so
 * the raw feature slots (layout.ts, generated from assembly/) stay inside score/.
 */
import { SentFlag, SF } from './layout';
import type { SentenceRecord } from './style';

/** Reads one count of a sentence. */
export type SentenceCount = (s: SentenceRecord) => number;

const slot =
  (k: number): SentenceCount =>
  (s) =>
    s.f[k];

/** Per-sentence counts (words, lexicon hits, numbers, names...), by name. */
export const COUNT = {
  words: slot(SF.WORDS),
  stockPhrases: slot(SF.STOCK),
  opensWithTransition: slot(SF.OPENS_TRANSITION),
  hedges: slot(SF.HEDGE),
  firstPerson: slot(SF.PERSONAL),
  contractions: slot(SF.CONTRACTION),
  numbers: slot(SF.NUMBERS),
  properNames: slot(SF.PROPER),
  commonWords: slot(SF.VOCAB),
  informalMarkers: slot(SF.INFORMAL),
  questionsOrExclamations: slot(SF.QUESTION_EXCLAIM),
} as const satisfies Record<string, SentenceCount>;

/** Whether a sentence is a heading or a list item (markdown layout). */
export function isHeadingOrList(s: SentenceRecord): boolean {
  return (s.flags & (SentFlag.HEADING | SentFlag.LIST)) !== 0;
}
