/** Detection metrics: AUROC, TPR at a fixed FPR, and thresholds for a target FPR. */
export { round6 } from '../../src/contract';
export { auroc, rng } from '../../src/detector/learn/stats';

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
