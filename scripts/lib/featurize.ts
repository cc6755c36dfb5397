/** Turn labelled rows into training documents with the real engine (so training and scoring share every step). */
import type { Engine } from '../../src/detector/score/engine';
import { LENGTH_BUCKETS } from '../../src/detector/score/calibration';
import type { ModelFile } from '../../src/detector/score/model';
import { docTypeBuckets } from './doctype-train';
import { docTypeOf } from './doctype-map';
import { cleanForTraining, familyOf, type Row } from './data';
import { excerptsOf } from './excerpts';
import { dimensionMeasures } from '../../src/detector/explain/dimensions';
import { ruleDocType, type DocType } from '../../src/detector/score/doctype';

/**
 * The text an AI training row teaches: without a chat preamble, and for a human opening continued
 * by an LLM only the LLM's part (its human opening is a human row of another source).
 */
export function trainingText(row: Row): string {
  const boundary = row.mix?.human_end_word;
  if (boundary !== undefined) {
    const words = [...row.text.matchAll(/\S+/g)];
    if (boundary > 0 && boundary < words.length) return row.text.slice(words[boundary].index!);
  }
  return cleanForTraining(row.text);
}

/** A labelled row and where it came from in the data. */
export interface SplitRow extends Row {
  split: 'train' | 'dev';
}

/** One featurized document: a whole row, or an excerpt of one (`excerpt` true). */
export interface Doc {
  row: SplitRow;
  excerpt: boolean;
  /** Distinct hashed n-gram indexes of the text (the lexical model's features). */
  feats: Uint32Array;
  /** Words as the scorer counts them (letters, numbers, CJK): what picks the calibration length bucket. */
  words: number;
  /** Explanation dimension measures by id. */
  measures: Record<string, number>;
  /** Document-type features, the layout rules' answer and the data's type (whole rows whose domain maps to a type). */
  docType: { buckets: Uint32Array; rule: DocType | null; type: DocType } | null;
  y: 0 | 1;
  lang: 0 | 1;
  family: string;
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
  const modes = { conservative: 1, balanced: 1, aggressive: 1 };
  // Identity calibration until scripts/train.ts fits the cells: featurizing needs no probability.
  const cell = () => ({
    platt: { a: 1, b: 0 },
    thresholds: modes,
    conclusive: { conservative: false, balanced: false, aggressive: false },
    heldOutTpr: { conservative: 0, balanced: 0, aggressive: 0 },
    texts: { human: 0, ai: 0 },
  });
  return {
    format: 2,
    featureVersion,
    weightBits,
    weightScale: 1,
    weightsSha256: '',
    trainedWith: { command: '', seed: 0, trainFiles: [] },
    channels,
    vocab,
    funcWords,
    lexicalBias: { en: 0, es: 0 },
    cells: { en: LENGTH_BUCKETS.map(cell), es: LENGTH_BUCKETS.map(cell) },
    sentenceCalibration: { en: { a: 1, b: 0 }, es: { a: 1, b: 0 } },
    sentenceThresholds: { en: modes, es: modes },
    segments: { en: null, es: null },
    heldOutErrors: { en: {}, es: {} },
    dimensionThresholds: { en: {}, es: {} },
    // Last, where model.json has had it since it was added (the file is compared byte for byte).
    thresholdLogits: { en: modes, es: modes },
  };
}

/**
 * Featurize rows (each scored in its labelled language) and, for each row, `excerpts` excerpts of
 * it. AI texts of the training split lose a chat preamble first (cleanForTraining); dev texts are
 * read as submitted.
 */
export function featurize(engine: Engine, rows: SplitRow[], excerpts: number): Doc[] {
  const docs: Doc[] = [];
  const add = (row: SplitRow, text: string, excerpt: boolean) => {
    const r = engine.analyze(text, row.lang, true);
    const type = excerpt ? null : docTypeOf(row);
    docs.push({
      row,
      excerpt,
      feats: r.feats!,
      words: r.scoredWords,
      measures: dimensionMeasures(r),
      docType: type ? { buckets: docTypeBuckets(text, r), rule: ruleDocType(text, r), type } : null,
      y: row.label === 'ai' ? 1 : 0,
      lang: row.lang === 'es' ? 1 : 0,
      family: familyOf(row),
      weight: 1,
    });
  };
  for (const row of rows) {
    const text = row.split === 'train' && row.label === 'ai' ? trainingText(row) : row.text;
    add(row, text, false);
    for (const piece of excerptsOf(text, excerpts)) add(row, piece, true);
  }
  return docs;
}
