/**
 * Excerpts: a window of 20-70 words cut from a longer text, at word boundaries, keeping the
 * original spacing. Training on one excerpt per text is close to a free win for short texts, and
 * calibrating on excerpts of held-out human texts is how the short-text promise is measured
 * (DETECTION_NOTES.md, second round: Spanish 25-word false positives 17.7% -> 5.3%).
 */
import { tokenHash } from '../../src/detector/score/doctype';
import { rng } from './metrics';

/** Shortest and longest excerpt, in whitespace-separated words. */
export const EXCERPT_MIN_WORDS = 20;
export const EXCERPT_MAX_WORDS = 70;
/** Only texts this long give an excerpt (a shorter one would be most of the text). */
const MIN_SOURCE_WORDS = 40;
/** Half of the excerpts are openings: "the first N words" is how short texts usually arrive. */
const OPENING_SHARE = 0.5;

/** Up to `count` excerpts of `text`, the same ones every time (seeded by the text). */
export function excerptsOf(text: string, count: number): string[] {
  const tokens = [...text.matchAll(/\S+/g)];
  if (tokens.length < MIN_SOURCE_WORDS || count <= 0) return [];
  const rand = rng(tokenHash(text));
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    const span = EXCERPT_MAX_WORDS - EXCERPT_MIN_WORDS + 1;
    const length = Math.min(tokens.length - 5, EXCERPT_MIN_WORDS + Math.floor(rand() * span));
    const start = rand() < OPENING_SHARE ? 0 : Math.floor(rand() * (tokens.length - length + 1));
    const first = tokens[start];
    const last = tokens[start + length - 1];
    out.push(text.slice(first.index!, last.index! + last[0].length));
  }
  return out;
}
