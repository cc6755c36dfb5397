/** Logistic regression trainers: a hashed sparse model (AdaGrad) and a small dense one. */
import { rng } from './metrics';

/** A training document for the hashed model: its n-gram indexes and its label. */
export interface SparseDoc {
  feats: Uint32Array;
  y: number;
  weight: number;
  lang: 0 | 1;
}

export interface SparseOptions {
  bits: number;
  epochs: number;
  lr: number;
  l2: number;
  seed: number;
}

/**
 * Train score = bias[lang] + sum(w[idx]) / sqrt(n) over a doc's n distinct n-grams (binary features,
 * L2-normalised; src/detector/score/engine.ts lexicalLogit) by AdaGrad on weighted log loss. Binary features
 * beat counts by 0.008 dev AUROC.
 */
export function trainSparse(docs: SparseDoc[], o: SparseOptions): { w: Float32Array; bias: [number, number] } {
  const n = 1 << o.bits;
  const w = new Float32Array(n);
  const g2 = new Float32Array(n).fill(1e-6);
  const bias: [number, number] = [0, 0];
  const bg2: [number, number] = [1e-6, 1e-6];
  const order = docs.map((_, i) => i);
  const rand = rng(o.seed);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const di of order) {
      const d = docs[di];
      const f = d.feats;
      const m = f.length;
      if (m === 0) continue;
      let z = 0;
      for (let k = 0; k < m; k++) z += w[f[k]];
      z = z / Math.sqrt(m) + bias[d.lang];
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - d.y) * d.weight;
      const gi = g / Math.sqrt(m);
      for (let k = 0; k < m; k++) {
        const idx = f[k];
        const grad = gi + o.l2 * w[idx];
        g2[idx] += grad * grad;
        w[idx] -= (o.lr * grad) / Math.sqrt(g2[idx]);
      }
      bg2[d.lang] += g * g;
      bias[d.lang] -= (o.lr * g) / Math.sqrt(bg2[d.lang]);
    }
  }
  return { w, bias };
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
