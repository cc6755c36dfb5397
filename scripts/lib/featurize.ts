/** Turn labelled rows into training documents with the real engine (so training and scoring share every step). */
import { Engine } from '../../src/engine/engine';
import { COMBINER_FEATURES } from '../../src/engine/style';
import { SF } from '../../src/engine/layout';
import type { ModelFile } from '../../src/engine/model';
import type { Row } from './data';
import { dimensionMeasures } from '../../src/explain/dimensions';

/** One featurized document. */
export interface Doc {
  row: Row;
  feats: Uint32Array;
  /** n-gram count of each sentence, in order (to split feats per sentence). */
  sentGrams: Uint32Array;
  sentWords: Uint16Array;
  /** Style features in COMBINER_FEATURES order (NaN where not measurable). */
  style: Float64Array;
  /** Explanation dimension measures by id. */
  measures: Record<string, number>;
  /** Word hashes of the first words (document-type training). */
  words: Uint32Array;
  y: number;
  lang: 0 | 1;
  weight: number;
}

/** A model with no weights: what the engine needs to tokenize and emit features. */
export function blankModel(
  vocab: { en: string[]; es: string[] },
  funcWords: { en: string[]; es: string[] },
  channels: number,
  weightBits: number,
  featureVersion: number,
): ModelFile {
  const zeroComb = { wLex: 1, b: 0, style: { rate: 0, trees: [] } };
  const modes = { conservative: 1, balanced: 1, aggressive: 1 };
  return {
    format: 1, featureVersion, weightBits, weightScale: 1, weightsSha256: '',
    trainedWith: { command: '', seed: 0, trainFiles: [] }, channels, vocab, funcWords,
    lexicalBias: { en: 0, es: 0 },
    combiner: { features: [...COMBINER_FEATURES], en: zeroComb, es: zeroComb },
    calibration: { en: { a: 1, b: 0 }, es: { a: 1, b: 0 } },
    sentenceCalibration: { en: { a: 1, b: 0 }, es: { a: 1, b: 0 } },
    thresholds: { en: modes, es: modes },
    sentenceThresholds: { en: modes, es: modes },
    dimensionThresholds: { en: {}, es: {} },
  };
}

/** Featurize rows with the engine, scoring each in its labelled language. */
export function featurize(engine: Engine, rows: Row[], clean: (t: string) => string): Doc[] {
  return rows.map((row) => {
    const r = engine.analyze(clean(row.text), row.lang, true);
    const style = new Float64Array(COMBINER_FEATURES.length);
    COMBINER_FEATURES.forEach((k, i) => (style[i] = r.style[k]));
    return {
      row,
      feats: r.feats!,
      sentGrams: Uint32Array.from(r.sentences.map((s) => s.f[SF.NGRAMS])),
      sentWords: Uint16Array.from(r.sentences.map((s) => Math.min(65535, s.words))),
      style,
      measures: dimensionMeasures(r),
      words: r.words,
      y: row.label === 'ai' ? 1 : 0,
      lang: row.lang === 'es' ? 1 : 0,
      weight: 1,
    };
  });
}

/**
 * Sample weights: within each language both labels weigh the same in total. (Weighting sources by
 * the square root of their size instead cost 0.005 dev AUROC in English and was dropped.)
 */
export function balanceWeights(docs: Doc[]): void {
  for (const d of docs) d.weight = 1;
  for (const lang of [0, 1]) {
    const tot = [0, 0];
    for (const d of docs) if (d.lang === lang) tot[d.y] += d.weight;
    const n = tot[0] + tot[1];
    for (const d of docs) if (d.lang === lang && tot[d.y] > 0) d.weight *= n / (2 * tot[d.y]);
  }
  let mean = 0;
  for (const d of docs) mean += d.weight;
  mean /= docs.length;
  for (const d of docs) d.weight /= mean;
}
