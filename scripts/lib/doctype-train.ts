/**
 * Train the document-type classifier (src/detector/score/doctype.ts): a softmax regression over the
 * distinct feature buckets of each text (words and layout tokens, binary, L2-normalised), by
 * AdaGrad. Every type weighs the same in total, and within a type a source of n texts weighs
 * n^(1 - SOURCE_WEIGHT_POWER), so one large source cannot make its topic the type's signature
 * (model card, "Document type": each source held out, 2026-11-27).
 */
import { forEachDocTypeFeature, type DocType, type DocTypeInput, type DocTypeModel } from '../../src/detector/score/doctype';
import { rng, round6 } from './metrics';

/** One training text: its feature buckets, its type and its source. */
export interface DocTypeSample {
  buckets: Uint32Array;
  type: DocType;
  source: string;
}

/** 2^16 buckets per type: 64 KB a type as int8. Fewer (2^14) cost 0.01 leave-one-source-out accuracy. */
export const DOCTYPE_BITS = 16;
/**
 * AdaGrad step and passes, and how each text of a source of n weighs (1 / n^power), chosen holding
 * out one source at a time (issue 35, 54,287 texts, `other` wrong): step 0.1 / 1/n, the setting of
 * 2026-11-26, 68.0%; step 0.05 65.3%; 4 passes 66.2%; 16 passes 69.0%; power 0.5 / 0.75 / 1.25: 69.0 /
 * 68.6 / 67.0%; step 0.2 69.3%, with power 0.75 69.8%; step 0.3 and power 0.75 70.1% (kept); step 0.4
 * 70.0%; 12 passes at 0.2 70.0%. (An older data set had preferred the small step: 0.636 vs 0.609.)
 */
const LEARNING_RATE = 0.3;
const EPOCHS = 8;
const BIAS_RATE = 0.05;
const SOURCE_WEIGHT_POWER = 0.75;

/** The distinct feature buckets of one analysed text. */
export function docTypeBuckets(text: string, r: DocTypeInput): Uint32Array {
  const set = new Set<number>();
  forEachDocTypeFeature(text, r, DOCTYPE_BITS, (b) => set.add(b));
  return Uint32Array.from(set).sort();
}

/** Train the table; below `minConfidence` the answer is `other` (DOCTYPE_MIN_CONFIDENCE for the shipped model). */
export function trainDocTypes(samples: DocTypeSample[], seed: number, minConfidence = 0): DocTypeModel {
  const types = [...new Set(samples.map((s) => s.type))].sort() as DocType[];
  const C = types.length;
  const size = 1 << DOCTYPE_BITS;
  const w = new Float32Array(C * size);
  const g2 = new Float32Array(C * size).fill(1e-6);
  const bias = new Float64Array(C);
  const y = samples.map((s) => types.indexOf(s.type));
  // Sample weights: 1/n^power per (type, source), then each type sums to the same total.
  const perSource = new Map<string, number>();
  for (let i = 0; i < samples.length; i++)
    perSource.set(`${y[i]}|${samples[i].source}`, (perSource.get(`${y[i]}|${samples[i].source}`) ?? 0) + 1);
  const raw = samples.map((s, i) => 1 / perSource.get(`${y[i]}|${s.source}`)! ** SOURCE_WEIGHT_POWER);
  const perType = new Float64Array(C);
  raw.forEach((v, i) => (perType[y[i]] += v));
  const weight = raw.map((v, i) => (v / perType[y[i]]) * (samples.length / C));
  const order = samples.map((_, i) => i);
  const rand = rng(seed);
  const z = new Float64Array(C);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const i of order) {
      const f = samples[i].buckets;
      const norm = 1 / Math.sqrt(Math.max(1, f.length));
      let max = -Infinity;
      for (let c = 0; c < C; c++) {
        let s = 0;
        const o = c * size;
        for (let k = 0; k < f.length; k++) s += w[o + f[k]];
        z[c] = s * norm + bias[c];
        if (z[c] > max) max = z[c];
      }
      let sum = 0;
      for (let c = 0; c < C; c++) sum += z[c] = Math.exp(z[c] - max);
      for (let c = 0; c < C; c++) {
        const g = (z[c] / sum - (c === y[i] ? 1 : 0)) * weight[i];
        const gi = g * norm;
        const o = c * size;
        for (let k = 0; k < f.length; k++) {
          const idx = o + f[k];
          g2[idx] += gi * gi;
          w[idx] -= (LEARNING_RATE * gi) / Math.sqrt(g2[idx]);
        }
        bias[c] -= BIAS_RATE * g;
      }
    }
  }
  let max = 0;
  for (let i = 0; i < w.length; i++) max = Math.max(max, Math.abs(w[i]));
  const scale = max > 0 ? max / 127 : 1;
  // Stored bucket-major (src/detector/score/doctype.ts reads a bucket's weights for every type at once).
  const table = new Int8Array(w.length);
  for (let c = 0; c < C; c++) for (let b = 0; b < size; b++) table[b * C + c] = Math.round(w[c * size + b] / scale);
  return { types, bits: DOCTYPE_BITS, scale, bias: Array.from(bias, round6), minConfidence, table };
}

/**
 * Below this softmax probability the type is `other`. Held out by source, the classifier was
 * right 25% of the time under 0.3 and 30% at 0.3-0.4 (model card): a guess that poor is not shown.
 */
export const DOCTYPE_MIN_CONFIDENCE = 0.3;

/** The shipped classifier from featurized training texts whose domain maps to a type. */
export function trainDocTypeClassifier(
  docs: { docType: { buckets: Uint32Array; type: DocType } | null; row: { source: string } }[],
  seed: number,
): DocTypeModel {
  const samples = docs.flatMap((d) => (d.docType ? [{ buckets: d.docType.buckets, type: d.docType.type, source: d.row.source }] : []));
  return trainDocTypes(samples, seed, DOCTYPE_MIN_CONFIDENCE);
}
