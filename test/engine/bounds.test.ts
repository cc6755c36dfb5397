import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { binomialCdf, binomialUpperBound } from '../../src/detector/score/bounds';

setDefaultTimeout(SUITE_TIMEOUT_MS);

describe('binomialUpperBound', () => {
  it('gives the rule of three for no events', () => {
    // 1 - 0.05^(1/n) ~ 3/n
    expect(binomialUpperBound(0, 300)).toBeCloseTo(0.00994, 4);
    expect(binomialUpperBound(0, 50)).toBeCloseTo(0.0581, 3);
  });
  it('matches the exact Clopper-Pearson bound (one-sided 95%)', () => {
    // Reference values: qbeta(0.95, k + 1, n - k)
    expect(binomialUpperBound(1, 100)).toBeCloseTo(0.0466, 3);
    expect(binomialUpperBound(5, 100)).toBeCloseTo(0.1024, 3);
    expect(binomialUpperBound(10, 1000)).toBeCloseTo(0.0169, 3);
  });
  it('is never below the observed rate and never 0 for a measured rate', () => {
    for (const [k, n] of [
      [0, 1],
      [3, 7],
      [40, 4000],
      [0, 100000],
    ]) {
      const u = binomialUpperBound(k, n);
      expect(u).toBeGreaterThan(k / n);
      expect(u).toBeLessThanOrEqual(1);
    }
    expect(binomialUpperBound(0, 0)).toBe(1);
  });
  it('sums the binomial distribution', () => {
    expect(binomialCdf(0, 10, 0.1)).toBeCloseTo(0.9 ** 10, 10);
    expect(binomialCdf(10, 10, 0.3)).toBe(1);
  });
});
