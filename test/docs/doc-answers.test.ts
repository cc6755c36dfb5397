/**
 * Issue 28: every answer the documentation shows (README.md, docs/api.md, docs/batch.md) is a real
 * one, rendered from src/modules/docs/examples.json, which test/docs/examples.test.ts ties to the
 * running code. A stale block, a hand-written answer outside the markers, or a README request that is
 * not the one answered fails here (fix: `bun run docs:examples`).
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRY_TEXT } from '../../src/cli/console';
import { EXAMPLES } from '../../src/modules/docs/examples';
import { BLOCK, DOC_ANSWERS, fillAnswers } from '../../scripts/lib/doc-answers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** Fenced code blocks of a Markdown text, with their offsets. */
function fences(markdown: string): { start: number; lang: string; body: string }[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ start: m.index!, lang: m[1], body: m[2] }));
}

/** Whether a code block shows an API answer (a JSON body or NDJSON lines). */
const isAnswer = (body: string) => /^\s*\{/.test(body) && /"(success|score|type|plan|verdictKey)"\s*:/.test(body);

describe('answers in the documentation', () => {
  for (const file of Object.keys(DOC_ANSWERS)) {
    it(`${file} shows the answers the code gives (bun run docs:examples)`, () => {
      const markdown = read(file);
      expect(markdown).toBe(fillAnswers(file, markdown, EXAMPLES));
    });

    it(`${file} shows no answer outside a generated block`, () => {
      const markdown = read(file);
      const generated = [...markdown.matchAll(BLOCK)].map((m) => [m.index!, m.index! + m[0].length]);
      const loose = fences(markdown).filter((f) => isAnswer(f.body) && !generated.some(([a, b]) => f.start >= a && f.start < b));
      expect(loose.map((f) => f.body.slice(0, 80))).toEqual([]);
      expect(generated.length).toBe(Object.keys(DOC_ANSWERS[file]).length);
    });
  }

  it('shows, in the README, the answer to the request the README sends (the banner’s Try: text)', () => {
    const readme = read('README.md');
    const sent = /-d '(\{"text": [^']+\})'/.exec(readme);
    expect(sent).not.toBeNull();
    expect(JSON.parse(sent![1]).text).toBe(TRY_TEXT);
    expect(EXAMPLES.readme.request.text).toBe(TRY_TEXT);
    expect(readme).toContain(`"score": ${EXAMPLES.readme.response.score}, "verdict": ${JSON.stringify(EXAMPLES.readme.response.verdict)}`);
    expect(readme).toContain(`"modelVersion": ${JSON.stringify(EXAMPLES.readme.response.modelVersion)}`);
  });

  it('can fail: a changed number or a hand-written answer is caught', () => {
    const markdown = read('docs/batch.md');
    const tampered = markdown.replace(/"score":\d+/, '"score":12');
    expect(tampered).not.toBe(markdown);
    expect(fillAnswers('docs/batch.md', tampered, EXAMPLES)).not.toBe(tampered);
    expect(isAnswer('{"type":"complete","total":3}\n')).toBe(true);
    expect(isAnswer('bun run detect a.txt\n')).toBe(false);
    expect(() => fillAnswers('docs/batch.md', markdown.replace(BLOCK, ''), EXAMPLES)).toThrow('no marker for batch-answer');
  });
});
