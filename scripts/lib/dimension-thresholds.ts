/**
 * Thresholds of the explanation dimensions (src/detector/explain/dimensions.ts), per language: the value only
 * DIMENSION_HUMAN_RATE of human training texts (of MIN_STYLE_WORDS+) go beyond. A dimension that
 * then fires on AI training texts less than DIMENSION_MIN_LIFT times as often as on human ones
 * carries no evidence in that language and is switched off there (threshold null).
 */
import { DIMENSIONS, MIN_STYLE_WORDS, beyond } from '../../src/detector/explain/dimensions';
import type { ModelFile } from '../../src/detector/score/model';
import type { Doc } from './featurize';

/** Share of human training texts allowed beyond a dimension's threshold (its false-alarm budget). */
const DIMENSION_HUMAN_RATE = 0.1;
/** A dimension must fire this many times as often on AI as on human training texts, and by this margin. */
const DIMENSION_MIN_LIFT = 1.5;
const DIMENSION_MIN_GAP = 0.05;

/** Thresholds of every learned dimension in both languages (whole training texts only). */
export function fitDimensionThresholds(docs: Doc[]): ModelFile['dimensionThresholds'] {
  const out: ModelFile['dimensionThresholds'] = { en: {}, es: {} };
  for (const [lang, id] of [
    ['en', 0],
    ['es', 1],
  ] as const) {
    const mine = docs.filter((d) => d.lang === id && d.words >= MIN_STYLE_WORDS);
    for (const dim of DIMENSIONS) {
      if (dim.detect) continue; // rule-based (lexical fingerprint, obfuscation)
      const values = mine
        .filter((d) => d.y === 0)
        .map((d) => d.measures[dim.id])
        .filter(Number.isFinite)
        .sort((a, b) => a - b);
      if (!values.length) continue;
      const q = dim.direction === 'high' ? 1 - DIMENSION_HUMAN_RATE : DIMENSION_HUMAN_RATE;
      const threshold = values[Math.min(values.length - 1, Math.floor(q * values.length))];
      const fires = (y: number) => {
        const xs = mine.filter((d) => d.y === y);
        return xs.filter((d) => beyond(dim, d.measures[dim.id], threshold)).length / Math.max(1, xs.length);
      };
      const [human, ai] = [fires(0), fires(1)];
      const on = ai >= DIMENSION_MIN_LIFT * human && ai - human >= DIMENSION_MIN_GAP;
      out[lang][dim.id] = on ? threshold : null;
    }
  }
  return out;
}
