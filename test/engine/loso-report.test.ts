/**
 * What `bun run eval --loso` counts as AI text to catch (scripts/lib/eval-loso.ts): an LLM edit that
 * changed under half of a human text's words is mostly the human original, so it is neither in the
 * catch rates nor in the human false positives; it is reported on its own line.
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { losoReport, type Scored } from '../../scripts/lib/eval-loso';

setDefaultTimeout(SUITE_TIMEOUT_MS);

function scored(over: Partial<Scored> & Pick<Scored, 'y' | 'flagged'>): Scored {
  return {
    lang: 0,
    words: 200,
    z: 0,
    source: 'src',
    family: 'fam',
    excerpt: false,
    domain: 'news',
    model: null,
    formal: false,
    lightEdit: false,
    ...over,
  };
}

describe('eval --loso report', () => {
  it('leaves light LLM edits out of the catch rates and reports them apart', () => {
    const caught = [true, true, true];
    const missed = [false, false, false];
    const scores: Scored[] = [
      ...Array.from({ length: 100 }, () => scored({ y: 0, flagged: missed })),
      scored({ y: 1, flagged: caught, source: 'alpaca_eval_modern' }),
      scored({ y: 1, flagged: caught, source: 'alpaca_eval_modern' }),
      // Two light polishes of human texts, missed: with them the catch rate would read 50%.
      scored({ y: 1, flagged: missed, source: 'imbd', lightEdit: true }),
      scored({ y: 1, flagged: missed, source: 'imbd', lightEdit: true }),
    ];
    const { summary, markdown } = losoReport(scores);
    expect(summary.ai150En.conservative).toBe(1);
    expect(summary.modern.balanced).toBe(1);
    expect(markdown).toContain('| English AI texts of 150+ words caught (2) |');
    expect(markdown).toMatch(/light LLM edits of human texts .* flagged \(2\) \| 0\.0% \| 0\.0% \| 0\.0% \|/);
  });
});
