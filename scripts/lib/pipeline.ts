/**
 * The first steps `bun run train` and `bun run eval --loso` share: load every round's rows, build
 * the masking vocabulary from the training split, and featurize every text and its excerpt with a
 * blank engine. Sharing them is what makes the held-out numbers in the model card the model's own.
 */
import { join } from 'node:path';
import { Engine } from '../../src/detector/score/engine';
import type { ModelFile } from '../../src/detector/score/model';
import { loadRows, splitFiles, UNTRAINED_FAMILIES, type DataOptions } from './data';
import { measureEdits } from './edits';
import { blankModel, featurize, type Doc, type SplitRow } from './featurize';
import { CHANNELS, EXCERPTS_PER_TEXT, FUNCTION_WORDS, VOCAB_SIZE, WEIGHT_BITS } from './settings';
import { buildVocab, topHumanWords } from './vocab';

/** Everything the training stages start from. */
export interface Prepared {
  trainFiles: string[];
  rows: SplitRow[];
  model: ModelFile;
  engine: Engine;
  docs: Doc[];
}

/** Load, build the vocabulary and featurize (about 30 s on 2 cores for the shared data). */
export async function prepare(o: DataOptions = {}): Promise<Prepared> {
  const trainFiles = splitFiles('train', o);
  const rows: SplitRow[] = measureEdits([
    ...loadRows(trainFiles).map((r) => ({ ...r, split: 'train' as const })),
    ...loadRows(splitFiles('dev', o)).map((r) => ({ ...r, split: 'dev' as const })),
  ]);
  const trainRows = rows.filter((r) => r.split === 'train');
  const vocab = buildVocab(trainRows, VOCAB_SIZE, true);
  const funcWords = { en: topHumanWords(trainRows, 'en', FUNCTION_WORDS), es: topHumanWords(trainRows, 'es', FUNCTION_WORDS) };
  const wasm = await Bun.file(join(import.meta.dir, '..', '..', 'model', 'detector.wasm')).arrayBuffer();
  const model = blankModel(vocab, funcWords, CHANNELS, WEIGHT_BITS, await featureVersionOf(wasm));
  const engine = await Engine.create(wasm, model, null);
  // Dev rows are featurized too: their held-out scores join the calibration (they come from the
  // same sources, and more held-out texts per cell mean steadier thresholds).
  const docs = featurize(engine, rows, EXCERPTS_PER_TEXT);
  return { trainFiles, rows, model, engine, docs };
}

/** Documents the document-type classifier and the dimension thresholds are fitted on: the training split (texts and excerpts). */
export const trainable = (d: Doc): boolean => d.row.split === 'train';

/** Documents a lexical model may be trained on: the training split, less the families it never learns from (data.ts). */
export const lexicalTrainable = (d: Doc): boolean => trainable(d) && !UNTRAINED_FAMILIES.has(d.family);

async function featureVersionOf(bytes: ArrayBuffer): Promise<number> {
  const { instance } = await WebAssembly.instantiate(bytes, { env: { abort: () => {} } });
  return (instance.exports.featureVersion as () => number)();
}
