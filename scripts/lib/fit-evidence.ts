/**
 * Synthetic evidence of an adaptation's fit (issue 44 items 3 and 7): texts as the fit reads them (the
 * model's logit, distinct hashed n-gram indexes, style measures) without scoring any text, so that a
 * test or a bench can time or weigh a fit of 100 texts of 500 KB, or of 100,000 texts, in seconds.
 * Shaped like the core's output: indexes in the model's 2^22 hashed space, each text's distinct and
 * ascending; a share drawn from a skewed pool of common n-grams (the function words and phrases many
 * texts share), the rest from the whole space (varied words: an n-gram of one text).
 */
import { ADAPTATION_STYLE } from '../../src/detector/decide/adaptation';
import type { FitText } from '../../src/detector/learn/adaptation';
import { rng } from '../../src/detector/learn/stats';

/** The core's hashed n-gram space (scripts/lib/settings.ts WEIGHT_BITS). */
const SPACE = 1 << 22;
/** Common n-grams a text draws its shared share from. */
const COMMON = 1 << 16;
/** Distinct n-grams the core emits for a text of 500 KB of varied words (measured: 57,413). */
export const GRAMS_OF_500_KB = 57_000;
/** Distinct n-grams the core emits for a text of 2 KB of prose (measured: 722). */
export const GRAMS_OF_2_KB = 720;

/**
 * `n` texts of `grams` distinct n-grams each, `commonShare` of them common ones; `label` 1 (AI) shifts
 * the logit and draws its common n-grams from the other end of the pool, so that the two labels differ.
 */
export function syntheticFitTexts(n: number, grams: number, label: 0 | 1, seed: number, commonShare = 0.3): FitText[] {
  const rand = rng(seed);
  const out: FitText[] = [];
  for (let t = 0; t < n; t++) {
    const g = new Uint32Array(grams);
    for (let k = 0; k < grams; k++) {
      if (rand() < commonShare) {
        // Skewed: u^3 puts most draws on the first few thousand of the pool; AI texts read it from the other end.
        const r = Math.floor(COMMON * rand() ** 3);
        const c = label === 1 && rand() < 0.5 ? COMMON - 1 - r : r;
        g[k] = Math.imul(c, 0x9e3779b1) >>> 10;
      } else g[k] = Math.floor(rand() * SPACE);
    }
    g.sort();
    let m = 0;
    for (let k = 0; k < grams; k++) if (k === 0 || g[k] !== g[k - 1]) g[m++] = g[k];
    const style = Float64Array.from(ADAPTATION_STYLE, () => rand() * 2 - 1 + label * 0.3);
    out.push({ logit: rand() * 4 - 2 + label, evidence: { grams: g.slice(0, m), style } });
  }
  return out;
}
