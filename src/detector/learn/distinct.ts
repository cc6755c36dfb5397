/**
 * What counts as one text of a profile (issue 40 item 7): one news text sent 1,000 times is one piece of
 * evidence, not 1,000. Texts are compared after normalisation (Unicode NFKC, whitespace runs collapsed,
 * trimmed), by a SHA-256 digest held in memory for the one request or command: never stored.
 */
import { createHash } from 'node:crypto';

/** The digest two texts share when they are the same after normalisation. */
export function textKey(text: string): string {
  return createHash('sha256').update(text.normalize('NFKC').replace(/\s+/gu, ' ').trim()).digest('base64');
}

/** The texts seen so far in one profile's set (human texts and AI examples together). */
export class DistinctTexts {
  private readonly seen = new Set<string>();

  /** True the first time a text is seen; false for a duplicate of one seen before. */
  add(text: string): boolean {
    const key = textKey(text);
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }
}
