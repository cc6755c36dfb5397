import { join } from 'node:path';
import { Engine } from '../src/engine/engine';
import { cleanForTraining, loadRows, splitFiles } from './lib/data';
import { balanceWeights, blankModel, featurize, type Doc } from './lib/featurize';
import { auroc, tprAtFpr, rng } from './lib/metrics';
import { buildVocab } from './lib/vocab';

const train = loadRows(splitFiles('train'));
const dev = loadRows(splitFiles('dev'));
const vocab = buildVocab(train, Number(process.env.VOCAB ?? 400), true);
const wasm = await Bun.file(join(import.meta.dir, '..', 'model', 'detector.wasm')).arrayBuffer();
const engine = await Engine.create(wasm, blankModel(vocab, 20, 1), null);
const tr = featurize(engine, train, cleanForTraining);
const dv = featurize(engine, dev, (t) => t);
balanceWeights(tr);
const BITS = 20, N = 1 << BITS;

type V = { idx: Uint32Array; val: Float32Array };
function transform(d: Doc, mode: string): V {
  if (mode === 'count') { const v = new Float32Array(d.feats.length).fill(1 / Math.sqrt(d.feats.length || 1)); return { idx: d.feats, val: v }; }
  const m = new Map<number, number>();
  for (const f of d.feats) m.set(f, (m.get(f) ?? 0) + 1);
  const idx = Uint32Array.from(m.keys());
  const val = new Float32Array(idx.length);
  let norm = 0;
  idx.forEach((k, i) => { const c = m.get(k)!; val[i] = mode === 'binary' ? 1 : 1 + Math.log(c); norm += val[i] * val[i]; });
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < val.length; i++) val[i] /= norm;
  return { idx, val };
}
function trainLR(X: V[], docs: Doc[], epochs: number, lr: number, l2: number, r?: Float32Array) {
  const w = new Float32Array(N), g2 = new Float32Array(N).fill(1e-6); const b = [0, 0], bg = [1e-6, 1e-6];
  const order = docs.map((_, i) => i); const rand = rng(1234);
  for (let e = 0; e < epochs; e++) {
    for (let i = order.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }
    for (const di of order) {
      const { idx, val } = X[di]; const d = docs[di];
      let z = b[d.lang]; for (let k = 0; k < idx.length; k++) z += w[idx[k]] * val[k] * (r ? r[idx[k]] : 1);
      const g = (1 / (1 + Math.exp(-z)) - d.y) * d.weight;
      for (let k = 0; k < idx.length; k++) { const i = idx[k]; const gr = g * val[k] * (r ? r[i] : 1) + l2 * w[i]; g2[i] += gr * gr; w[i] -= lr * gr / Math.sqrt(g2[i]); }
      bg[d.lang] += g * g; b[d.lang] -= lr * g / Math.sqrt(bg[d.lang]);
    }
  }
  return { w, b };
}
function evalM(m: { w: Float32Array; b: number[] }, X: V[], docs: Doc[], r?: Float32Array) {
  const out: string[] = [];
  for (const lang of [0, 1]) {
    const pos: number[] = [], neg: number[] = [];
    docs.forEach((d, i) => { if (d.lang !== lang) return; const { idx, val } = X[i]; let z = m.b[lang]; for (let k = 0; k < idx.length; k++) z += m.w[idx[k]] * val[k] * (r ? r[idx[k]] : 1); (d.y ? pos : neg).push(z); });
    out.push(`${lang ? 'es' : 'en'} AUROC ${auroc(pos, neg).toFixed(4)} TPR@1 ${tprAtFpr(pos, neg, 0.01).toFixed(3)}`);
  }
  return out.join(' | ');
}
const modes = (process.env.MODES ?? 'count,binary,log').split(',');
for (const mode of modes) {
  const Xt = tr.map((d) => transform(d, mode)), Xd = dv.map((d) => transform(d, mode));
  for (const [ep, lr] of (process.env.GRID ?? '4:0.5').split(',').map((s) => s.split(':').map(Number))) {
    const m = trainLR(Xt, tr, ep, lr, 0);
    console.log(mode, ep, lr, evalM(m, Xd, dv));
  }
  if (process.env.NB) {
    const cnt = [new Float32Array(N).fill(1), new Float32Array(N).fill(1)];
    tr.forEach((d, i) => { for (const k of Xt[i].idx) cnt[d.y][k] += d.weight; });
    let s0 = 0, s1 = 0; for (let i = 0; i < N; i++) { s0 += cnt[0][i]; s1 += cnt[1][i]; }
    const r = new Float32Array(N); for (let i = 0; i < N; i++) r[i] = Math.abs(Math.log((cnt[1][i] / s1) / (cnt[0][i] / s0))) + 0.1;
    const m = trainLR(Xt, tr, 4, 0.5, 0, r);
    console.log(mode, 'NB', evalM(m, Xd, dv, r));
  }
}
