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
  /**
   * Let the caller run other work after about this much work (a yield of sparseSteps): n-grams read,
   * plus DOC_WORK per document. Not documents: one of 500 KB is a hundred of 5 KB (issue 44 item 3).
   * 0 or absent: never (`bun run train`).
   */
  sliceWork?: number;
}

/** The work of a document besides its n-grams (the offset, the dense inputs, the bias): what sliceWork counts. */
export const DOC_WORK = 32;

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
 * 0.008 dev AUROC. A generator: it yields after about `sliceWork` units of work so that a server can
 * answer other requests between slices (the yields change no number); trainSparse() runs it to the end.
 */
export function* sparseSteps(docs: readonly SparseDoc[], o: SparseOptions): Generator<void, SparseModel> {
  const n = 1 << o.bits;
  const denseInputs = o.denseInputs ?? 0;
  const s: SparseState = {
    w: new Float32Array(n),
    g2: new Float32Array(n).fill(1e-6),
    bias: [0, 0],
    bg2: [1e-6, 1e-6],
    dense: new Float64Array(denseInputs),
    dg2: new Float64Array(denseInputs).fill(1e-6),
    offsetWeight: 1,
    og2: 1e-6,
  };
  const order = docs.map((_, i) => i);
  const rand = rng(o.seed);
  const every = o.sliceWork ?? 0;
  let work = 0;
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    shuffleInPlace(order, rand);
    if (every <= 0) {
      for (const di of order) sparseStep(s, docs[di], o, denseInputs);
      continue;
    }
    for (const di of order) {
      const d = docs[di];
      if ((work += d.feats.length + DOC_WORK) >= every) {
        work = 0;
        yield;
      }
      sparseStep(s, d, o, denseInputs);
    }
  }
  return { w: s.w, bias: s.bias, offsetWeight: s.offsetWeight, dense: s.dense };
}

/** What sparseSteps updates. Its loops live in plain functions: a generator's own loops ran 10-50x slower here (JavaScriptCore). */
interface SparseState {
  w: Float32Array;
  g2: Float32Array;
  bias: [number, number];
  bg2: [number, number];
  dense: Float64Array;
  dg2: Float64Array;
  offsetWeight: number;
  og2: number;
}

/** A seeded Fisher-Yates shuffle of `order`, in place: each epoch's order. */
function shuffleInPlace(order: number[], rand: () => number): void {
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
}

/** One AdaGrad step on one document. */
function sparseStep(s: SparseState, d: SparseDoc, o: SparseOptions, denseInputs: number): void {
  const { w, g2, bias, bg2, dense, dg2 } = s;
  const f = d.feats;
  const m = f.length;
  const extra = d.offset !== undefined || d.dense !== undefined;
  if (m === 0 && !extra) return;
  const root = Math.sqrt(d.grams ?? m);
  let z = 0;
  for (let k = 0; k < m; k++) z += w[f[k]];
  z = (m > 0 ? z / root : 0) + bias[d.lang];
  if (d.offset !== undefined) z += s.offsetWeight * d.offset;
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
    s.og2 += grad * grad;
    s.offsetWeight -= (o.lr * grad) / Math.sqrt(s.og2);
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
  return runToEnd(denseSteps(x, y, weight, l2, iters, 0));
}

/** trainDense() as a generator: it yields after about `sliceWork` inputs read (0: never); the yields change no number. */
export function* denseSteps(
  x: number[][],
  y: number[],
  weight: number[],
  l2: number,
  iters: number,
  sliceWork: number,
): Generator<void, { w: number[]; b: number }> {
  const d = x[0].length;
  const w = new Array(d).fill(0);
  let b = 0;
  const totalW = weight.reduce((a, v) => a + v, 0);
  let lr = 0.5;
  // Texts per slice: all of them in one go offline.
  const chunk = sliceWork > 0 ? Math.max(1, Math.floor(sliceWork / (d + 1))) : x.length;
  for (let it = 0; it < iters; it++) {
    const gw = new Array(d).fill(0);
    let gb = 0;
    for (let from = 0; from < x.length; from += chunk) {
      gb = denseGradient(x, y, weight, w, b, gw, gb, from, Math.min(x.length, from + chunk));
      if (sliceWork > 0) yield;
    }
    for (let k = 0; k < d; k++) w[k] -= lr * (gw[k] / totalW + l2 * w[k]);
    b -= lr * (gb / totalW);
    if (it === 200) lr = 0.25;
  }
  return { w, b };
}

/** The weighted log loss's gradient over inputs [from, to), added to `gw` (in place) and to `gb` (returned), in input order. */
function denseGradient(
  x: number[][],
  y: number[],
  weight: number[],
  w: number[],
  b: number,
  gw: number[],
  gb: number,
  from: number,
  to: number,
): number {
  const d = w.length;
  for (let i = from; i < to; i++) {
    let z = b;
    for (let k = 0; k < d; k++) z += w[k] * x[i][k];
    const g = (1 / (1 + Math.exp(-z)) - y[i]) * weight[i];
    for (let k = 0; k < d; k++) gw[k] += g * x[i][k];
    gb += g;
  }
  return gb;
}

/** Platt scaling: fit p = sigmoid(a*z + b) by weighted log loss. */
export function fitPlatt(z: number[], y: number[], weight?: number[]): { a: number; b: number } {
  return runToEnd(plattSteps(z, y, weight, 0));
}

/** fitPlatt() as a generator: it yields after about `sliceWork` scores read (0: never); the yields change no number. */
export function* plattSteps(
  z: number[],
  y: number[],
  weight: number[] | undefined,
  sliceWork: number,
): Generator<void, { a: number; b: number }> {
  const wts = weight ?? z.map(() => 1);
  const { w, b } = yield* denseSteps(
    z.map((v) => [v]),
    y,
    wts,
    0,
    600,
    sliceWork,
  );
  return { a: w[0], b };
}
