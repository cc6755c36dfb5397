/**
 * The training documents of an adaptation's fit (./adaptation.ts): the style standardisation, each
 * document's weight, and the documents themselves (kept n-grams as compact indexes, the model's logit
 * as offset, standardised style), in slices of work (./slices.ts).
 */
import { ADAPTATION_STYLE } from '../decide/adaptation';
import type { FitText } from './fit-text';
import { type GramTable, gramIndex } from './grams';
import { DOC_WORK, type SparseDoc } from './lr';
import { TABLE_WORK, type WorkSlices } from './slices';

/** The mean and scale of each style measure over the texts (NaN values left out; a constant measure gets scale 1). */
export function* styleScaling(texts: readonly FitText[], slices: WorkSlices): Generator<void, { mean: number[]; scale: number[] }> {
  const mean: number[] = [];
  const scale: number[] = [];
  for (let k = 0; k < ADAPTATION_STYLE.length; k++) {
    const { m, sd } = measureScaling(texts, k);
    mean.push(m);
    scale.push(sd > 1e-12 ? sd : 1);
    if (slices.spent(2 * texts.length)) yield;
  }
  return { mean, scale };
}

/** The mean and standard deviation of style measure `k` over the texts' finite values (0 and 0 without any). */
function measureScaling(texts: readonly FitText[], k: number): { m: number; sd: number } {
  let n = 0;
  let sum = 0;
  for (const t of texts) {
    const v = t.evidence.style[k];
    if (Number.isFinite(v)) {
      sum += v;
      n++;
    }
  }
  const m = n ? sum / n : 0;
  let squares = 0;
  for (const t of texts) {
    const v = t.evidence.style[k];
    if (Number.isFinite(v)) squares += (v - m) * (v - m);
  }
  return { m, sd: n ? Math.sqrt(squares / n) : 0 };
}

/** The training documents: kept n-grams as compact indexes, the model's logit as offset, standardised style. */
export function* documents(
  texts: readonly FitText[],
  labels: Uint8Array,
  weights: Float64Array,
  table: GramTable,
  style: { mean: number[]; scale: number[] },
  slices: WorkSlices,
): Generator<void, SparseDoc[]> {
  const docs: SparseDoc[] = [];
  const scratch = { kept: new Uint32Array(1024) };
  for (let i = 0; i < texts.length; i++) {
    docs.push(documentOf(texts[i], labels[i], weights[i], table, style, scratch));
    if (slices.spent(texts[i].evidence.grams.length * TABLE_WORK + DOC_WORK)) yield;
  }
  return docs;
}

/** One training document (`scratch`: a buffer its kept n-grams are gathered in, grown as needed). */
function documentOf(
  t: FitText,
  y: number,
  weight: number,
  table: GramTable,
  style: { mean: number[]; scale: number[] },
  scratch: { kept: Uint32Array },
): SparseDoc {
  const grams = t.evidence.grams;
  if (scratch.kept.length < grams.length) scratch.kept = new Uint32Array(grams.length);
  const kept = scratch.kept;
  let m = 0;
  for (let k = 0; k < grams.length; k++) {
    const j = gramIndex(table, grams[k]);
    if (j >= 0) kept[m++] = j;
  }
  const dense = Float64Array.from(ADAPTATION_STYLE, (_, k) => {
    const v = t.evidence.style[k];
    return Number.isFinite(v) ? (v - style.mean[k]) / style.scale[k] : 0;
  });
  return { feats: kept.slice(0, m), grams: grams.length, offset: t.logit, dense, y, weight, lang: 0 };
}

/**
 * Each document's weight. Both labels weigh the same in all (the fit's even odds are the profile's,
 * whatever its mix), the mean weight 1. Within the human side, the reference texts weigh `weight`
 * times the site's human texts, each population the same whatever its size (a big one must not drown
 * a small one).
 */
export function documentWeights(human: number, ai: number, reference: readonly FitText[], weight: number): Float64Array {
  const n = human + ai + reference.length;
  const out = new Float64Array(n);
  if (!reference.length) {
    out.fill(n / (2 * human), 0, human);
    out.fill(n / (2 * ai), human);
    return out;
  }
  const sizes = new Map<number | undefined, number>();
  for (const t of reference) sizes.set(t.group, (sizes.get(t.group) ?? 0) + 1);
  out.fill(n / (2 * (1 + weight) * human), 0, human);
  out.fill(n / (2 * ai), human, human + ai);
  const perPopulation = (n * weight) / (2 * (1 + weight) * sizes.size);
  reference.forEach((t, i) => {
    out[human + ai + i] = perPopulation / sizes.get(t.group)!;
  });
  return out;
}
