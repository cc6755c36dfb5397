/**
 * Logistic regression trainers, shared by `bun run train` (the global lexical model) and a calibration
 * profile's adaptation (./adaptation.ts): a hashed sparse model fitted by AdaGrad, and a small dense
 * one by gradient descent. Deterministic: the same documents and seed give the same weights.
 */
import { rng } from './stats';

/** A training document for the sparse model: its n-gram indexes and its label. */
export interface SparseDoc {
  /** Distinct weight indexes of the document (binary features). */
  feats: Uint32Array;
  y: number;
  weight: number;
  /** Which bias the document uses (the global model has one per model language). */
  lang: 0 | 1;
  /**
   * Distinct n-grams the document has in all, when `feats` holds only some of them (an adaptation
   * weighs only n-grams seen in enough texts): the L2 normalisation. Default feats.length.
   */
  grams?: number;
  /** A fixed input with a learned coefficient (an adaptation's: the global model's logit). */
  offset?: number;
  /** Dense inputs, already standardised (an adaptation's style measures). */
  dense?: Float64Array;
}

export interface SparseOptions {
  bits: number;
  epochs: number;
  lr: number;
  l2: number;
  seed: number;
  /** Weights of the dense inputs (0: none). */
  denseInputs?: number;
  /** Let the caller run other work after this many documents (a yield of sparseSteps). 0: never. */
  yieldEvery?: number;
}

/** A fitted sparse model. */
export interface SparseModel {
  w: Float32Array;
  bias: [number, number];
  /** The coefficient of each document's `offset` (1 where no document has one). */
  offsetWeight: number;
  dense: Float64Array;
}

/**
 * Train score = bias[lang] + sum(w[idx]) / sqrt(n) (+ offsetWeight * offset + dense . x) over a doc's
 * n distinct n-grams (binary features, L2-normalised; src/detector/score/engine.ts lexicalLogit) by
 * AdaGrad on weighted log loss, with L2 on the n-gram and dense weights. Binary features beat counts by
 * 0.008 dev AUROC. A generator: it yields every `yieldEvery` documents so that a server can answer
 * other requests between slices; trainSparse() runs it to the end.
 */
export function* sparseSteps(docs: readonly SparseDoc[], o: SparseOptions): Generator<void, SparseModel> {
  const n = 1 << o.bits;
  const w = new Float32Array(n);
  const g2 = new Float32Array(n).fill(1e-6);
  const bias: [number, number] = [0, 0];
  const bg2: [number, number] = [1e-6, 1e-6];
  const denseInputs = o.denseInputs ?? 0;
  const dense = new Float64Array(denseInputs);
  const dg2 = new Float64Array(denseInputs).fill(1e-6);
  let offsetWeight = 1;
  let og2 = 1e-6;
  const order = docs.map((_, i) => i);
  const rand = rng(o.seed);
  const every = o.yieldEvery ?? 0;
  let sinceYield = 0;
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const di of order) {
      if (every > 0 && ++sinceYield >= every) {
        sinceYield = 0;
        yield;
      }
      const d = docs[di];
      const f = d.feats;
      const m = f.length;
      const extra = d.offset !== undefined || d.dense !== undefined;
      if (m === 0 && !extra) continue;
      const root = Math.sqrt(d.grams ?? m);
      let z = 0;
      for (let k = 0; k < m; k++) z += w[f[k]];
      z = (m > 0 ? z / root : 0) + bias[d.lang];
      if (d.offset !== undefined) z += offsetWeight * d.offset;
      if (d.dense) for (let k = 0; k < denseInputs; k++) z += dense[k] * d.dense[k];
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - d.y) * d.weight;
      const gi = g / root;
      for (let k = 0; k < m; k++) {
        const idx = f[k];
        const grad = gi + o.l2 * w[idx];
        g2[idx] += grad * grad;
        w[idx] -= (o.lr * grad) / Math.sqrt(g2[idx]);
      }
      if (d.offset !== undefined) {
        const grad = g * d.offset;
        og2 += grad * grad;
        offsetWeight -= (o.lr * grad) / Math.sqrt(og2);
      }
      if (d.dense) {
        for (let k = 0; k < denseInputs; k++) {
          const grad = g * d.dense[k] + o.l2 * dense[k];
          dg2[k] += grad * grad;
          dense[k] -= (o.lr * grad) / Math.sqrt(dg2[k]);
        }
      }
      bg2[d.lang] += g * g;
      bias[d.lang] -= (o.lr * g) / Math.sqrt(bg2[d.lang]);
    }
  }
  return { w, bias, offsetWeight, dense };
}

/** Runs a generator of slices to its end (offline training: nothing else to serve). */
export function runToEnd<T>(steps: Generator<void, T>): T {
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}

/** sparseSteps() in one call. */
export function trainSparse(docs: readonly SparseDoc[], o: SparseOptions): SparseModel {
  return runToEnd(sparseSteps(docs, o));
}

/** A document's logit under a model sparseSteps fitted: the formula it trains, with the document's offset and dense inputs. */
export function documentLogit(m: SparseModel, d: SparseDoc): number {
  const f = d.feats;
  let z = 0;
  for (let k = 0; k < f.length; k++) z += m.w[f[k]];
  let logit = (f.length > 0 ? z / Math.sqrt(d.grams ?? f.length) : 0) + m.bias[d.lang];
  if (d.offset !== undefined) logit += m.offsetWeight * d.offset;
  if (d.dense) for (let k = 0; k < m.dense.length; k++) logit += m.dense[k] * d.dense[k];
  return logit;
}

/** The hashed model's logit for a list of n-gram indexes. */
export function sparseLogit(w: Float32Array, bias: number, feats: Uint32Array, from = 0, to = feats.length): number {
  const m = to - from;
  if (m <= 0) return bias;
  let z = 0;
  for (let k = from; k < to; k++) z += w[feats[k]];
  return z / Math.sqrt(m) + bias;
}

/** Dense weighted logistic regression by full-batch gradient descent with L2 (inputs pre-standardised). */
export function trainDense(x: number[][], y: number[], weight: number[], l2: number, iters = 400): { w: number[]; b: number } {
  const d = x[0].length;
  const w = new Array(d).fill(0);
  let b = 0;
  const totalW = weight.reduce((a, v) => a + v, 0);
  let lr = 0.5;
  for (let it = 0; it < iters; it++) {
    const gw = new Array(d).fill(0);
    let gb = 0;
    for (let i = 0; i < x.length; i++) {
      let z = b;
      for (let k = 0; k < d; k++) z += w[k] * x[i][k];
      const g = (1 / (1 + Math.exp(-z)) - y[i]) * weight[i];
      for (let k = 0; k < d; k++) gw[k] += g * x[i][k];
      gb += g;
    }
    for (let k = 0; k < d; k++) w[k] -= lr * (gw[k] / totalW + l2 * w[k]);
    b -= lr * (gb / totalW);
    if (it === 200) lr = 0.25;
  }
  return { w, b };
}

/** Platt scaling: fit p = sigmoid(a*z + b) by weighted log loss. */
export function fitPlatt(z: number[], y: number[], weight?: number[]): { a: number; b: number } {
  const wts = weight ?? z.map(() => 1);
  const { w, b } = trainDense(
    z.map((v) => [v]),
    y,
    wts,
    0,
    600,
  );
  return { a: w[0], b };
}
