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
import type { OtherWriters } from './guard';

/** The measured error of one verdict's kind of text. */
export interface MeasuredError {
  /** Share (0 to 1) of the held-out human texts of this kind that this mode flagged as AI. */
  rate: number;
  /** How many held-out human texts the share was measured on. */
  texts: number;
  /**
   * One-sided 95% upper bound on the share (0 to 1) of such human texts the mode flags, for a kind
   * of text from a source never trained on: the worst held-out family of this kind with its exact
   * binomial bound, never under the pooled one (never 0); NaN when not measured. A calibration
   * profile's bound comes from its own texts.
   */
  upperBound: number;
  /** Where the figures come from: the model's held-out tests, or a calibration profile's own texts. */
  source: 'model' | 'calibration';
  /** The kind it was measured on: a document type (null: every type)... */
  docType: DocType | null;
  /** ...and a length range in words (null: every length; `max` null: no upper bound). */
  words: { min: number; max: number | null } | null;
  /**
   * Under a profile that applied: what the bar that decided flags of reference writers unlike the
   * profile's (the mode's `otherWriters`, issue 43 item 5); absent otherwise, or for a profile made
   * without the reference set.
   */
  otherWriters?: OtherWriters;
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
    if (rate)
      return {
        rate: rate.flagged[mode],
        texts: rate.texts,
        upperBound: rate.upperBound[mode],
        source: 'model',
        docType: type,
        words: length,
      };
  }
  return { rate: Number.NaN, texts: 0, upperBound: Number.NaN, source: 'model', docType: null, words: null };
}
