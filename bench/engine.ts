/** Engine section: in-process latency of detector.analyze and of the raw engine, per text size. */
import { createDetector } from '../src/detector';
import { loadEngine } from '../src/detector/score/load';
import { corpusText } from './corpus';
import { percentile } from './stats';

/** Text sizes (words) the issue asks for, plus 5,000 (issue 2's target). */
export const ENGINE_SIZES = [100, 500, 2_000, 5_000, 10_000] as const;
/** Distinct texts per size, so the JIT and caches do not see one string only. */
const VARIANTS = 8;
/** Per size and round: at least this many timed calls, and at least this much time. */
const MIN_CALLS = 200;
const MIN_MS = 250;
/** Rounds per row, interleaved across sizes; the round with the lowest p50 is kept (noise only adds time). */
const ROUNDS = 5;

/** One row: which function, the size, latency percentiles (ms) and throughput. */
export interface EngineRow {
  fn: 'detector.analyze' | 'engine.analyze';
  words: number;
  calls: number;
  p50: number;
  p99: number;
  wordsPerSec: number;
}

function measure(fn: (text: string) => unknown, texts: readonly string[]): number[] {
  for (let i = 0; i < 50; i++) fn(texts[i % texts.length]);
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; times.length < MIN_CALLS || performance.now() - started < MIN_MS; i++) {
    const text = texts[i % texts.length];
    const t0 = performance.now();
    fn(text);
    times.push(performance.now() - t0);
  }
  return times;
}

/** The two functions the engine rows time: what the API runs, and the raw wasm scorer. */
export async function engineFunctions(): Promise<[EngineRow['fn'], (text: string) => unknown][]> {
  const detector = await createDetector();
  const engine = await loadEngine();
  return [
    ['detector.analyze', (text) => detector.analyze(text)],
    ['engine.analyze', (text) => engine.analyze(text)],
  ];
}

/** Runs the engine section. */
export async function benchEngine(): Promise<EngineRow[]> {
  const rows: EngineRow[] = [];
  const fns = await engineFunctions();
  const texts = new Map(ENGINE_SIZES.map((words) => [words, Array.from({ length: VARIANTS }, (_, v) => corpusText(words, v))]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const words of ENGINE_SIZES) {
      for (const [fn, call] of fns) {
        const times = measure(call, texts.get(words)!);
        const p50 = percentile(times, 50);
        const row = { fn, words, calls: times.length, p50, p99: percentile(times, 99), wordsPerSec: (words / p50) * 1000 };
        const i = rows.findIndex((r) => r.fn === fn && r.words === words);
        if (i === -1) rows.push(row);
        else if (row.p50 < rows[i].p50) rows[i] = row;
      }
    }
  }
  return rows;
}
