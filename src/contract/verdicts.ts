/** Verdict keys, defined once, and which side of the scale each one is on. */

/**
 * Verdict keys, from most human to most AI. `inconclusive`: not enough evidence either way (a
 * short text, or a score between the human and AI thresholds). `mixed`: human and AI passages.
 */
export const VERDICT_KEYS = ['human', 'likely_human', 'inconclusive', 'mixed', 'likely_ai', 'ai'] as const;
export type VerdictKey = (typeof VERDICT_KEYS)[number];

/** True when a verdict says the text is, or contains, AI-generated writing (the verdicts that highlight). */
export function isAiVerdict(v: VerdictKey): boolean {
  return v === 'ai' || v === 'likely_ai' || v === 'mixed';
}

/** True when a verdict points to a human writer. */
export function isHumanVerdict(v: VerdictKey): boolean {
  return v === 'human' || v === 'likely_human';
}
