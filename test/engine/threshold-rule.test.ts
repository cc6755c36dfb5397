/**
 * The threshold rule of `bun run train` (scripts/lib/calibrate.ts): one threshold per language and
 * mode, the smallest that flags at most the mode's promise of every family's held-out human texts,
 * with no margin on top; families too small to measure a rate do not set it.
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { calibrateCell, languageThreshold, MIN_FAMILY_HUMAN_TEXTS, thresholdAt, type HeldOutScore } from '../../scripts/lib/calibrate';
import { MODE_FPR, SENSITIVITIES } from '../../src/contract';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** `n` human held-out scores of a family, evenly spread from `lo` to `hi`. */
function family(name: string, n: number, lo: number, hi: number, excerpt = false): HeldOutScore[] {
  return Array.from({ length: n }, (_, i) => ({
    lang: 0 as const,
    words: 200,
    z: lo + ((hi - lo) * i) / (n - 1),
    y: 0 as const,
    source: name,
    family: name,
    excerpt,
  }));
}

const flaggedShare = (xs: HeldOutScore[], t: number) => xs.filter((s) => s.z >= t).length / xs.length;

describe('threshold rule', () => {
  it('flags at most the promise of every family with enough human texts, and exactly reaches the strictest', () => {
    const formal = family('formal', 400, -2, 6);
    const casual = family('casual', 1000, -6, 2);
    for (const fpr of Object.values(MODE_FPR)) {
      const t = languageThreshold([...formal, ...casual], fpr);
      expect(flaggedShare(formal, t)).toBeLessThanOrEqual(fpr);
      expect(flaggedShare(casual, t)).toBeLessThanOrEqual(fpr);
      // No margin on top: the strictest family is flagged at the promise (to one text), not below it.
      expect(t).toBe(
        thresholdAt(
          formal.map((s) => s.z),
          fpr,
        ),
      );
    }
  });

  it('ignores a family too small to measure a rate, and guards short texts by the excerpts as their own group', () => {
    const big = family('big', 1000, -6, 2);
    const tiny = family('tiny', MIN_FAMILY_HUMAN_TEXTS - 1, 5, 9);
    expect(languageThreshold([...big, ...tiny], 0.01)).toBe(
      thresholdAt(
        big.map((s) => s.z),
        0.01,
      ),
    );
    const excerpts = family('big', 500, -1, 7, true);
    const t = languageThreshold([...big, ...excerpts], 0.01);
    expect(t).toBe(
      thresholdAt(
        excerpts.map((s) => s.z),
        0.01,
      ),
    );
    expect(flaggedShare(excerpts, t)).toBeLessThanOrEqual(0.01);
  });

  it('gives a cell the language thresholds as probabilities of its own calibration, conclusive only where it separates', () => {
    const human = family('h', 300, -4, 1);
    const ai = human.map((s) => ({ ...s, y: 1 as const, z: s.z + 4, source: 'a', family: 'a' }));
    const threshold = { conservative: 3, balanced: 2, aggressive: 1 };
    const cell = calibrateCell([...human, ...ai], [], threshold);
    for (const m of SENSITIVITIES) {
      const p = 1 / (1 + Math.exp(-(cell.platt.a * threshold[m] + cell.platt.b)));
      expect(cell.thresholds[m]).toBeCloseTo(p, 5);
      expect(cell.conclusive[m]).toBe(true);
    }
    expect(cell.thresholds.conservative).toBeGreaterThan(cell.thresholds.balanced);
    // Labels that do not separate held out, and nothing to align with: no mode may give an AI verdict in the cell.
    const noisy = [...human, ...human.map((s) => ({ ...s, y: 1 as const }))];
    const noise = calibrateCell(noisy, [...human, ...ai], threshold);
    expect(Object.values(noise.conclusive)).toEqual([false, false, false]);
    // With another language's calibration aligned at the thresholds, the cell reads on that scale and the threshold rule decides.
    const aligned = calibrateCell(noisy, [...human, ...ai], threshold, { a: 0.5, b: -1 });
    expect(aligned.platt).toEqual({ a: 0.5, b: -1 });
    expect(Object.values(aligned.conclusive)).toEqual([true, true, true]);
    expect(aligned.thresholds.conservative).toBeCloseTo(1 / (1 + Math.exp(-(0.5 * 3 - 1))), 5);
  });
});
