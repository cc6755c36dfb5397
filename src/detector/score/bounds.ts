/**
 * Upper bounds on a rate measured on few texts: what every "at most X%" the detector tells a person
 * rests on (the measured error of the model's held-out texts, a calibration profile's own texts).
 * Exact (Clopper-Pearson): never below the observed rate, never 0 for n > 0, and wider when n is small.
 */

/** The confidence of every upper bound the detector states. */
export const BOUND_CONFIDENCE = 0.95;

/** P(X <= k) for X ~ Binomial(n, p), summed in log space so large n stays exact enough. */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k >= n || p <= 0) return 1;
  if (k < 0 || p >= 1) return 0;
  const lp = Math.log(p);
  const lq = Math.log1p(-p);
  let logTerm = n * lq; // log P(X = 0)
  let sum = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log((n - i + 1) / i) + lp - lq;
    sum += Math.exp(logTerm);
  }
  return Math.min(1, sum);
}

/**
 * One-sided upper confidence bound on a binomial rate from `k` events in `n` trials: the largest p
 * with P(X <= k | p) >= 1 - confidence (Clopper-Pearson). n = 0 tells nothing: 1.
 */
export function binomialUpperBound(k: number, n: number, confidence: number = BOUND_CONFIDENCE): number {
  if (n <= 0) return 1;
  if (k >= n) return 1;
  const alpha = 1 - confidence;
  if (k === 0) return 1 - alpha ** (1 / n); // closed form
  let lo = k / n;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (binomialCdf(k, n, mid) > alpha) lo = mid;
    else hi = mid;
  }
  return hi;
}
