/**
 * Hostile shapes of text must not make explanations super-linear (a request body is up to ~1 MB):
 * many short sentences (per-sentence loops over all sentences) and long runs of blank lines
 * (regular expressions with \s* after a line start backtrack quadratically).
 */
import { beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import type { Detector } from '../../src/detector/types';
import { sharedDetector } from '../engine/fixture';

setDefaultTimeout(SUITE_TIMEOUT_MS);

let detector: Detector;
beforeAll(async () => {
  detector = await sharedDetector();
});

/** Generous wall-clock budget per analysis; the linear code needs well under a tenth of it. */
const BUDGET_MS = 1500;
const BODY = 'So yesterday I fixed my bike at last and rode it all the way to the station and back again without falling off once.';

function timed(text: string): number {
  const t0 = performance.now();
  const a = detector.analyze(text, { sensitivity: 'aggressive' });
  expect(a.bullets.length).toBeGreaterThanOrEqual(2);
  return performance.now() - t0;
}

describe('explanation cost', () => {
  const SHAPES: Record<string, string> = {
    '20,000 identical short sentences (every one repeats the opening)': 'The cat sat on the mat. '.repeat(20_000),
    '100,000 blank lines': BODY + '\n'.repeat(100_000) + BODY,
    '50,000 CRLF blank lines': BODY + '\r\n'.repeat(50_000) + BODY,
    '50,000 whitespace-only lines': BODY + '\n \t\n'.repeat(25_000) + BODY,
    '20,000 quoted dialogue lines': '"Hi," she said.\n'.repeat(20_000),
    '20,000 list items': '- one more item here\n'.repeat(20_000),
    'a greeting followed by 100,000 characters without a comma': `Dear ${'x'.repeat(100_000)}`,
    'one 100,000-letter word of fullwidth (disguised) letters': `${BODY} ${'Ａ'.repeat(100_000)}`,
    'one 100,000-letter word mixing Latin and Cyrillic': `${BODY} ${'aо'.repeat(50_000)}`,
  };
  for (const [name, text] of Object.entries(SHAPES)) {
    it(`stays linear on ${name}`, () => {
      expect(timed(text)).toBeLessThan(BUDGET_MS);
    });
  }
});
