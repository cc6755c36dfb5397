/**
 * Engine latency on real submissions: dev texts of 300-800 words from ../shared/data, each a
 * different text. The generated corpus (bench/corpus.ts) has a small vocabulary, so its n-grams
 * stay in the CPU cache; real texts reach further into the 4 MB weight table and cost more. This
 * row is informational (the targets are on the fixed corpus, which every machine can reproduce);
 * it is skipped when the shared data is absent.
 */
import { hasData, loadRows, splitFiles } from '../scripts/lib/data';
import { countWords } from '../src/contract';
import { engineFunctions, type EngineRow } from './engine';
import { percentile } from './stats';

/** Texts measured: the first this many dev rows in the size range, over all sources (files sorted). */
const MAX_TEXTS = 400;
const MIN_WORDS = 300;
const MAX_WORDS = 800;
/** Passes over the texts; the one with the lowest p50 is kept (noise only adds time). */
const ROUNDS = 3;

/** One function's latency over the real texts. */
export interface RealTextsRow {
  fn: EngineRow['fn'];
  texts: number;
  meanWords: number;
  p50: number;
  p99: number;
}

/** Picks up to MAX_TEXTS dev texts of MIN_WORDS-MAX_WORDS words, a few from every source. */
function realTexts(): string[] {
  const files = splitFiles('dev');
  const perFile = Math.ceil(MAX_TEXTS / files.length);
  const texts: string[] = [];
  for (const file of files) {
    let taken = 0;
    for (const row of loadRows([file])) {
      if (taken >= perFile) break;
      const words = countWords(row.text);
      if (words < MIN_WORDS || words > MAX_WORDS) continue;
      texts.push(row.text);
      taken++;
    }
  }
  return texts.slice(0, MAX_TEXTS);
}

/** Runs the section, or returns null without the shared data. */
export async function benchRealTexts(): Promise<RealTextsRow[] | null> {
  if (!hasData()) return null;
  const texts = realTexts();
  const meanWords = texts.reduce((sum, t) => sum + countWords(t), 0) / texts.length;
  const rows: RealTextsRow[] = [];
  for (const [fn, call] of await engineFunctions()) {
    for (const text of texts.slice(0, 50)) call(text);
    let best: RealTextsRow | null = null;
    for (let round = 0; round < ROUNDS; round++) {
      const times = texts.map((text) => {
        const t0 = performance.now();
        call(text);
        return performance.now() - t0;
      });
      const row = { fn, texts: texts.length, meanWords, p50: percentile(times, 50), p99: percentile(times, 99) };
      if (!best || row.p50 < best.p50) best = row;
    }
    rows.push(best!);
  }
  return rows;
}
