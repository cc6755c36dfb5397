/**
 * Boosted regression trees over the style features: the non-linear part of the combiner. Trees
 * never see the lexical logit, so the combined score stays monotone in it (see combinedLogit).
 */

/** One tree as parallel arrays: internal nodes have f >= 0 (go left when x[f] <= t), leaves f = -1. */
export interface Tree {
  f: number[];
  t: number[];
  l: number[];
  r: number[];
  v: number[];
}

export interface Gbdt {
  rate: number;
  trees: Tree[];
}

/** Where missing measures (NaN: too few sentences, paragraphs or words) sort: below every value. */
export const MISSING = -1e30;

/** Leaf value of one tree for feature vector x. */
export function treeValue(tr: Tree, x: ArrayLike<number>): number {
  let n = 0;
  while (tr.f[n] >= 0) {
    const raw = x[tr.f[n]];
    const v = Number.isFinite(raw) ? raw : MISSING;
    n = v <= tr.t[n] ? tr.l[n] : tr.r[n];
  }
  return tr.v[n];
}

/** Sum of the boosted trees' values (learning rate applied). */
export function gbdtValue(m: Gbdt, x: ArrayLike<number>): number {
  let z = 0;
  for (const tr of m.trees) z += m.rate * treeValue(tr, x);
  return z;
}
