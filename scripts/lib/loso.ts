/**
 * Out-of-source scores: for each source family, a lexical model trained on every other family
 * scores that family's texts. These are the scores calibration is fitted on (scripts/train.ts)
 * and the ones `bun run eval --loso` reports: they show how the detector does on a source it
 * has never seen, which is what users' texts are.
 */
import type { Doc } from './featurize';
import { sparseLogit, trainSparse, type SparseOptions } from './lr';
import { setTrainingWeights } from './weights';

/** Options of heldOutLogits. */
export interface HeldOutOptions {
  sparse: SparseOptions;
  /** Which documents may be trained on (the training split; excerpts included). */
  trainable: (d: Doc) => boolean;
  /** Called after each family, for progress lines. */
  onFamily?: (family: string, done: number, total: number) => void;
}

/** The families of the documents, sorted (the order folds run in). */
export function familiesOf(docs: readonly Doc[]): string[] {
  return [...new Set(docs.map((d) => d.family))].sort();
}

/**
 * Each document's lexical logit from the model trained without its family (NaN where not scored).
 * One sparse training per family: about 21 trainings for the shared data.
 */
export function heldOutLogits(docs: Doc[], o: HeldOutOptions): Float64Array {
  const out = new Float64Array(docs.length).fill(NaN);
  const families = familiesOf(docs);
  families.forEach((family, k) => {
    const train = docs.filter((d) => d.family !== family && o.trainable(d));
    setTrainingWeights(train);
    const model = trainSparse(train, o.sparse);
    docs.forEach((d, i) => {
      if (d.family === family) out[i] = sparseLogit(model.w, model.bias[d.lang], d.feats);
    });
    o.onFamily?.(family, k + 1, families.length);
  });
  return out;
}
