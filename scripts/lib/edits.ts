/**
 * Round 4's LLM edits of human texts (MANIFEST.md, round 4: `polish`, `rewrite`, and `paraphrase`
 * of tweets) keep the human original's content. They are treated like round 3's edited texts
 * (weights.ts, MIN_EDIT_SHARE): each is measured against its group's human original and trained on
 * as AI text only when the LLM changed enough of the words. Measured on the shared data, the LLM
 * changed a median 58-72% of the words (15-31% of the edits changed less than half).
 */
import type { Row } from './data';

/** Variants that edit a human original rather than write freely (`continuation`, `expand`, `generation`, `qa` are free). */
export const EDIT_VARIANTS: ReadonlySet<string> = new Set(['polish', 'rewrite', 'paraphrase']);

/** Longest texts compared word by word (the quadratic comparison stays under a second for the whole data). */
const MAX_COMPARED_WORDS = 1500;

/** Length of the longest common subsequence of two word lists. */
function lcs(a: string[], b: string[]): number {
  let prev = new Int32Array(b.length + 1);
  let cur = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** Share of the longer text's words that are not in the common subsequence of the two (0: same words). */
export function changedWordShare(original: string, edited: string): number {
  const a = original.split(/\s+/).filter(Boolean).slice(0, MAX_COMPARED_WORDS);
  const b = edited.split(/\s+/).filter(Boolean).slice(0, MAX_COMPARED_WORDS);
  const n = Math.max(a.length, b.length);
  return n ? 1 - lcs(a, b) / n : 0;
}

/**
 * Give every round-4 edit a `mix` like round 3's edited rows: `changed_word_fraction` measured
 * against its group's human original, or 0 when the original is not in the data (an edit that
 * cannot be measured is not trained on as AI text: most of it may be the person's words).
 */
export function measureEdits<T extends Row>(rows: T[]): T[] {
  const originals = new Map<string, string>();
  for (const r of rows) if (r.label === 'human' && r.group && !originals.has(r.group)) originals.set(r.group, r.text);
  return rows.map((r) => {
    if (r.label !== 'ai' || !r.group || !r.variant || !EDIT_VARIANTS.has(r.variant) || r.mix) return r;
    const original = originals.get(r.group);
    const share = original === undefined ? 0 : changedWordShare(original, r.text);
    return { ...r, mix: { type: `llm_${r.variant}`, changed_word_fraction: share } };
  });
}
