/** The sentence bound checked before a text is scored (issue 23; src/extract/sentences.ts). */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { extractText } from '../../src/extract/index.ts';
import { countSentenceEnds, excessSentences, sentenceCap } from '../../src/extract/sentences.ts';
import { AI_EN } from '../engine/texts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

describe('countSentenceEnds', () => {
  it('counts runs of terminal marks before a space or the end, and runs of line breaks', () => {
    expect(countSentenceEnds('One. Two! Three? Four… 五。')).toBe(5);
    expect(countSentenceEnds('Wait... what?! Yes.')).toBe(3);
    expect(countSentenceEnds('3.5 e.g.x no end')).toBe(0);
    expect(countSentenceEnds('a\nb\r\nc\n\n\nd')).toBe(3);
    expect(countSentenceEnds('Go. '.repeat(1000))).toBe(1000);
  });

  it('reads each character once: runs of dots without a space after them stay linear', () => {
    const t0 = performance.now();
    expect(countSentenceEnds(`${'.'.repeat(1_000_000)}x`)).toBe(0);
    expect(countSentenceEnds('.x'.repeat(500_000))).toBe(0);
    // Generous for a loaded machine: ~20 ms here; a backtracking pattern took 2 s on 20k dots.
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('stops counting just past the given cap', () => {
    expect(countSentenceEnds('Go. '.repeat(1000), 10)).toBe(11);
  });
});

describe('the sentence cap', () => {
  it('is 20,000 for short texts, 1 per 25 characters beyond, at most 250,000', () => {
    expect(sentenceCap(1000)).toBe(20_000);
    expect(sentenceCap(1_000_000)).toBe(40_000);
    expect(sentenceCap(10 * 1024 * 1024)).toBe(250_000);
  });

  it('refuses dense tiny sentences and lets prose through', () => {
    expect(excessSentences('Go. '.repeat(20_000))).toBeNull();
    expect(excessSentences('Go. '.repeat(30_000))).toEqual({ count: 20_001, limit: 20_000 });
    expect(excessSentences('a\n'.repeat(300_000))).toEqual({ count: 24_001, limit: 24_000 });
    expect(excessSentences(`${AI_EN}\n\n`.repeat(2_000))).toBeNull();
  });

  it('is an extract_limit (text_sentences) of a file, quoting its cap', async () => {
    const bytes = new TextEncoder().encode('Go. '.repeat(100_000));
    const error = await extractText(bytes, 'go.txt').catch((e) => e);
    expect(error).toMatchObject({ code: 'extract_limit', params: { kind: 'text_sentences', limit: 20_000 } });
    expect((await extractText(new TextEncoder().encode(AI_EN), 'essay.txt')).text).toBe(AI_EN);
  });
});
