/** Detection metrics: AUROC, TPR at a fixed FPR, and thresholds for a target FPR. */

/** Area under the ROC curve (ties count half). */
export function auroc(pos: number[], neg: number[]): number {
  if (!pos.length || !neg.length) return NaN;
  const all = [...pos.map((s) => [s, 1] as const), ...neg.map((s) => [s, 0] as const)].sort((a, b) => a[0] - b[0]);
  let rankSum = 0;
  let i = 0;
  while (i < all.length) {
    let j = i;
    while (j < all.length && all[j][0] === all[i][0]) j++;
    const avg = (i + j + 1) / 2;
    for (let k = i; k < j; k++) if (all[k][1] === 1) rankSum += avg;
    i = j;
  }
  return (rankSum - (pos.length * (pos.length + 1)) / 2) / (pos.length * neg.length);
}

/**
 * A threshold t such that the share of `neg` with score >= t is at most `fpr`: midway between the
 * highest score that must stay below it and the next higher one, so tiny numeric drift cannot
 * push one more text over.
 */
export function thresholdForFpr(neg: number[], fpr: number): number {
  const sorted = [...neg].sort((a, b) => b - a);
  const allowed = Math.floor(fpr * sorted.length);
  if (allowed >= sorted.length) return -Infinity;
  const v = sorted[allowed];
  const above = allowed > 0 ? sorted[allowed - 1] : Infinity;
  return above > v && Number.isFinite(above) ? (v + above) / 2 : nextUp(v);
}

function nextUp(v: number): number {
  if (!Number.isFinite(v)) return v;
  return v + Math.max(Math.abs(v) * 1e-12, 1e-15);
}

/** Share of scores >= t. */
export function rateAbove(scores: number[], t: number): number {
  if (!scores.length) return NaN;
  let k = 0;
  for (const s of scores) if (s >= t) k++;
  return k / scores.length;
}

/** TPR at the threshold that gives at most `fpr` on negatives. */
export function tprAtFpr(pos: number[], neg: number[], fpr: number): number {
  return rateAbove(pos, thresholdForFpr(neg, fpr));
}

/** Deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Model files keep 6 decimals: enough for the thresholds, and diffs stay readable. */
export function round6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}
