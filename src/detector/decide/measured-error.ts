/**
 * The measured error beside a verdict (issue 27): how often this mode flagged held-out human texts
 * of the text's kind, from the tables `bun run train` writes (scripts/lib/measured-error.ts). The
 * most specific kind with enough held-out texts answers: document type and length, then type, then
 * length, then the language as a whole.
 */
import { modelLang, type Sensitivity, type TextLang } from '../../contract';
import { errorKey, LENGTH_BUCKETS, lengthBucket, type MeasuredRate } from '../score/calibration';
import type { DocType } from '../score/doctype';
import type { ModelFile } from '../score/model';

/** The measured error of one verdict's kind of text. */
export interface MeasuredError {
  /** Share (0 to 1) of the held-out human texts of this kind that this mode flagged as AI. */
  rate: number;
  /**
   * Share (0 to 1) this mode may flag of a kind of text from a source never trained on: the worst
   * held-out family of this kind with its binomial bound (never 0; 1 when nothing was measured).
   */
  upperBound: number;
  /** How many held-out human texts the share was measured on. */
  texts: number;
  /** The kind it was measured on: a document type (null: every type)... */
  docType: DocType | null;
  /** ...and a length range in words (null: every length; `max` null: no upper bound). */
  words: { min: number; max: number | null } | null;
}

/** The measured error for a text of `docType` and `words` words (the scored prose) in `lang`, at `mode`. */
export function measuredError(model: ModelFile, lang: TextLang, docType: DocType, words: number, mode: Sensitivity): MeasuredError {
  const table = model.heldOutErrors[modelLang(lang)];
  const b = lengthBucket(words);
  const range = { min: LENGTH_BUCKETS[b], max: b + 1 < LENGTH_BUCKETS.length ? LENGTH_BUCKETS[b + 1] - 1 : null };
  const tries: [string, DocType | null, MeasuredError['words']][] = [
    [errorKey(docType, b), docType, range],
    [errorKey(docType, '*'), docType, null],
    [errorKey('*', b), null, range],
    [errorKey('*', '*'), null, null],
  ];
  for (const [key, type, length] of tries) {
    const rate: MeasuredRate | undefined = table[key];
    if (rate) return { rate: rate.flagged[mode], upperBound: rate.upperBound[mode], texts: rate.texts, docType: type, words: length };
  }
  return { rate: Number.NaN, upperBound: 1, texts: 0, docType: null, words: null };
}
