/** Training of the combiner's boosted trees (src/engine/gbdt.ts evaluates them): histogram splits on quantile bins. */
import { MISSING, treeValue, type Gbdt, type Tree } from '../../src/engine/gbdt';

export interface GbdtOptions {
  rounds: number;
  depth: number;
  rate: number;
  bins: number;
  minLeaf: number;
  l2: number;
}

/** Fit trees by Newton boosting on log loss from a per-row starting logit (`offset`, the linear lexical part). */
export function trainGbdt(X: number[][], y: number[], w: number[], o: GbdtOptions, offset: number[]): Gbdt {
  const n = X.length;
  const d = X[0].length;
  // Quantile bin edges per feature.
  const edges: number[][] = [];
  const binned: Uint8Array[] = [];
  for (let f = 0; f < d; f++) {
    const vals = X.map((r) => (Number.isFinite(r[f]) ? r[f] : MISSING)).sort((a, b) => a - b);
    const e: number[] = [];
    for (let b = 1; b < o.bins; b++) {
      const v = vals[Math.floor((b * n) / o.bins)];
      if (!e.length || v > e[e.length - 1]) e.push(v);
    }
    edges.push(e);
    const col = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const v = Number.isFinite(X[i][f]) ? X[i][f] : MISSING;
      let lo = 0;
      let hi = e.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (v <= e[mid]) hi = mid;
        else lo = mid + 1;
      }
      col[i] = lo;
    }
    binned.push(col);
  }
  const z = Float64Array.from(offset);
  const trees: Tree[] = [];
  const g = new Float64Array(n);
  const h = new Float64Array(n);
  for (let round = 0; round < o.rounds; round++) {
    for (let i = 0; i < n; i++) {
      const p = 1 / (1 + Math.exp(-z[i]));
      g[i] = (p - y[i]) * w[i];
      h[i] = Math.max(p * (1 - p), 1e-6) * w[i];
    }
    const tree: Tree = { f: [], t: [], l: [], r: [], v: [] };
    const grow = (idx: Int32Array, depth: number): number => {
      const node = tree.f.length;
      tree.f.push(-1); tree.t.push(0); tree.l.push(-1); tree.r.push(-1); tree.v.push(0);
      let G = 0;
      let H = 0;
      for (const i of idx) { G += g[i]; H += h[i]; }
      tree.v[node] = -G / (H + o.l2);
      if (depth >= o.depth || idx.length < 2 * o.minLeaf) return node;
      let best = 0;
      let bestF = -1;
      let bestB = -1;
      const parent = (G * G) / (H + o.l2);
      for (let f = 0; f < d; f++) {
        const nb = edges[f].length + 1;
        const hg = new Float64Array(nb);
        const hh = new Float64Array(nb);
        const hc = new Int32Array(nb);
        const col = binned[f];
        for (const i of idx) { hg[col[i]] += g[i]; hh[col[i]] += h[i]; hc[col[i]]++; }
        let gl = 0, hl = 0, cl = 0;
        for (let b = 0; b < nb - 1; b++) {
          gl += hg[b]; hl += hh[b]; cl += hc[b];
          const cr = idx.length - cl;
          if (cl < o.minLeaf || cr < o.minLeaf) continue;
          const gr = G - gl, hr = H - hl;
          const gain = (gl * gl) / (hl + o.l2) + (gr * gr) / (hr + o.l2) - parent;
          if (gain > best) { best = gain; bestF = f; bestB = b; }
        }
      }
      if (bestF < 0) return node;
      const col = binned[bestF];
      const left = idx.filter((i) => col[i] <= bestB);
      const right = idx.filter((i) => col[i] > bestB);
      tree.f[node] = bestF;
      tree.t[node] = edges[bestF][bestB];
      const ln = grow(left, depth + 1);
      const rn = grow(right, depth + 1);
      tree.l[node] = ln;
      tree.r[node] = rn;
      return node;
    };
    grow(Int32Array.from({ length: n }, (_, i) => i), 0);
    for (let i = 0; i < n; i++) z[i] += o.rate * treeValue(tree, X[i]);
    trees.push(tree);
  }
  return { rate: o.rate, trees };
}
