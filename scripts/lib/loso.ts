/**
 * Out-of-source scores: for each source family, a lexical model trained on every other family
 * scores that family's texts. These are the scores calibration is fitted on (scripts/train.ts)
 * and the ones `bun run eval --loso` reports: they show how the detector does on a source it
 * has never seen, which is what users' texts are.
 */
import type { Doc } from './featurize';
import type { HeldOutHelper } from './loso-helper';
import { type SparseModel, sparseLogit, trainSparse, type SparseOptions } from '../../src/detector/learn/lr';
import { lexicalTrainable } from './pipeline';
import { setTrainingWeights } from './weights';

/** Options of heldOutLogits. */
export interface HeldOutOptions {
  sparse: SparseOptions;
  /** Called after each family, for progress lines. */
  onFamily?: (family: string, done: number, total: number) => void;
  /** A second thread with the same documents (loso-helper.ts) that fits some of the families; closed when they are in. */
  helper?: HeldOutHelper;
}

/** The families of the documents, sorted (the order folds run in). */
export function familiesOf(docs: readonly Doc[]): string[] {
  return [...new Set(docs.map((d) => d.family))].sort();
}

/**
 * The lexical logits of `family`'s documents (in document order) from the model trained on the
 * other families' trainable documents (pipeline.ts lexicalTrainable). Depends on nothing but the
 * documents, so a helper thread that featurized the same data gives the same numbers.
 */
export function fitWithout(docs: Doc[], family: string, sparse: SparseOptions): Float64Array {
  return logitsOf(
    modelWithout(docs, family, sparse),
    docs.filter((d) => d.family === family),
  );
}

/** The lexical model trained on the other families' trainable documents (what fitWithout scores `family` with). */
export function modelWithout(docs: Doc[], family: string, sparse: SparseOptions): SparseModel {
  const train = docs.filter((d) => d.family !== family && lexicalTrainable(d));
  setTrainingWeights(train);
  return trainSparse(train, sparse);
}

/** Each document's lexical logit under `model`. */
export const logitsOf = (model: SparseModel, docs: readonly Doc[]): Float64Array =>
  Float64Array.from(docs, (d) => sparseLogit(model.w, model.bias[d.lang], d.feats));

/** Fits one helper keeps queued, so it starts the next while this thread is busy with its own. */
const HELPER_QUEUE = 2;

/**
 * Each document's lexical logit from the model trained without its family (NaN where not scored).
 * One sparse training per family (30 for the shared data, ~6 s each on one core): with a helper,
 * the two threads take families from one queue; the numbers do not depend on who fitted what.
 */
export async function heldOutLogits(docs: Doc[], o: HeldOutOptions): Promise<Float64Array> {
  const out = new Float64Array(docs.length).fill(NaN);
  const families = familiesOf(docs);
  const members = new Map(families.map((f) => [f, [] as number[]]));
  docs.forEach((d, i) => members.get(d.family)!.push(i));
  let next = 0;
  let done = 0;
  const record = (family: string, logits: Float64Array) => {
    members.get(family)!.forEach((i, k) => {
      out[i] = logits[k];
    });
    o.onFamily?.(family, ++done, families.length);
  };
  const { helper } = o;
  const helped = helper
    ? Array.from({ length: HELPER_QUEUE }, async () => {
        await helper.ready;
        while (next < families.length) {
          const family = families[next++];
          record(family, await helper.fit(family, o.sparse));
        }
      })
    : [];
  while (next < families.length) {
    const family = families[next++];
    record(family, fitWithout(docs, family, o.sparse));
    await Bun.sleep(0); // let the helper's answers in, and it take its next families
  }
  await Promise.all(helped).finally(() => helper?.close());
  return out;
}
