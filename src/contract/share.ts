/**
 * The AI share (words in AI passages / all words), rounded once for everyone (issue 32: the page
 * showed 55% beside a bullet saying "about 54%", 0.545 rounded from two different values).
 */

/** The share as the API sends it (`aiShare`): 3 decimals. */
export function roundShare(share: number): number {
  return Math.round(share * 1000) / 1000;
}

/**
 * The share in whole percent, from the API's 3-decimal value (so 0.5449 and 0.545 both say 55):
 * what the mixed bullet, the playground, the Files table and the CLI all write.
 */
export function aiSharePercent(share: number): number {
  return Math.round(Math.round(share * 1000) / 10);
}

/** Error rates and bounds are stated to 6 decimals (model files, profiles, answers): enough for any threshold, and diffs stay readable. */
export function round6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}
