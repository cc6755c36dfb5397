/**
 * The measured error a verdict carries (issue 27): for each language, document type and length
 * bucket, the share of held-out human texts each mode flagged. The texts are the held-out whole
 * human texts of every trained family, each flagged by thresholds its own family did not set
 * (eval-loso.ts nestedFlags), the same scores and rule the thresholds come from; the document type
 * is the shipped classifier's answer for the text, as the API will give it.
 */
import { errorKey, lengthBucket, MIN_RATE_TEXTS, type ErrorTable, type MeasuredRate } from '../../src/detector/score/calibration';
import type { DocType } from '../../src/detector/score/doctype';
import { SENSITIVITIES } from '../../src/contract';
import { round6 } from './metrics';

/** One held-out human text: its language, document type, words, and whether each mode flagged it. */
export interface HumanOutcome {
  lang: 0 | 1;
  docType: DocType;
  words: number;
  flagged: boolean[];
}

/** The error tables of both languages; groups with fewer than MIN_RATE_TEXTS texts are left out. */
export function measuredErrors(outcomes: readonly HumanOutcome[]): { en: ErrorTable; es: ErrorTable } {
  const table = (lang: 0 | 1): ErrorTable => {
    const groups = new Map<string, HumanOutcome[]>();
    const add = (k: string, o: HumanOutcome) => {
      const g = groups.get(k);
      if (g) g.push(o);
      else groups.set(k, [o]);
    };
    for (const o of outcomes) {
      if (o.lang !== lang) continue;
      const b = lengthBucket(o.words);
      add(errorKey(o.docType, b), o);
      add(errorKey(o.docType, '*'), o);
      add(errorKey('*', b), o);
      add(errorKey('*', '*'), o);
    }
    const out: ErrorTable = {};
    for (const k of [...groups.keys()].sort()) {
      const g = groups.get(k)!;
      if (g.length < MIN_RATE_TEXTS && k !== errorKey('*', '*')) continue;
      out[k] = {
        texts: g.length,
        flagged: Object.fromEntries(
          SENSITIVITIES.map((m, i) => [m, round6(g.filter((o) => o.flagged[i]).length / g.length)]),
        ) as MeasuredRate['flagged'],
      };
    }
    return out;
  };
  return { en: table(0), es: table(1) };
}
