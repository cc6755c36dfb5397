/**
 * How long one text holds the event loop, by length and shape (issue 40 item 6): one
 * `detector.analyze` per text, in this process, the engine's limit raised to its ceiling so that every
 * length is scored. The numbers chose MAX_TEXT_CHARS (src/contract/text-length.ts, docs/limits.md).
 *
 *   bun run bench/text-length.ts                      # 256 Ki, 512 Ki, 1 Mi, 2 Mi; 5 runs each
 *   bun run bench/text-length.ts 524288,1048576 3     # lengths, runs
 */
import { join } from 'node:path';
import { dataDir, hasData, loadRows } from '../scripts/lib/data';
import { MAX_TEXT_CHARS_CEILING } from '../src/contract/text-length';
import { createDetector } from '../src/detector';
import { excessSentences } from '../src/extract/sentences';
import { corpusText } from './corpus';

const lengths = (process.argv[2] ?? '262144,524288,1048576,2097152').split(',').map(Number);
const runs = Number(process.argv[3] ?? 5);
const detector = await createDetector({ maxTextChars: MAX_TEXT_CHARS_CEILING });
const fill = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
const prose = corpusText(500_000);
// Real answers of a chat model (markdown, long paragraphs): slower than the generated corpus. Skipped without ../shared/data.
const real = hasData()
  ? loadRows([join(dataDir(), 'alpaca_eval_modern.dev.jsonl')])
      .map((row) => row.text)
      .join('\n\n')
  : '';

/** The shapes measured: prose, the most tokens, the most sentences a text may have, and CJK (sentences without spaces). */
const SHAPES: Record<string, (n: number) => string> = {
  'prose (bench corpus)': (n) => prose.slice(0, n),
  ...(real ? { 'prose (dev answers)': (n: number) => fill(`${real}\n\n`, n) } : {}),
  'one-letter words': (n) => fill('a ', n),
  '25-character sentences': (n) => fill('We go to the big shop now. ', n),
  CJK: (n) => fill('这是一个测试句子，我们在这里写很多字。', n),
};

for (const n of lengths) {
  for (const [name, make] of Object.entries(SHAPES)) {
    const text = make(n);
    if (excessSentences(text)) {
      console.log(`${n}\t${name}\trefused (too many sentences)`);
      continue;
    }
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      detector.analyze(text);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const ms = (v: number) => v.toFixed(0);
    console.log(`${n}\t${name}\tmin ${ms(times[0])} ms\tmedian ${ms(times[Math.floor(runs / 2)])} ms\tmax ${ms(times[runs - 1])} ms`);
  }
}
