/**
 * No memory growth on the hot path (issue #2): the wasm core allocates nothing per call, so 100,000
 * analyses of a ~100-word text keep process RSS flat and linear memory never grows after warm-up.
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import type { Engine } from '../../src/detector/score/engine';
import { LANG_ID } from '../../src/contract';
import { loadEngine } from '../../src/detector/score/load';
import { AI_EN, HUMAN_EN } from './texts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const CALLS = 100_000;
const WARM_UP = 2_000;
/** Allowed RSS growth over the second 50k calls: GC timing noise (up to 12 MB seen when the whole suite runs), not a per-call leak (a 400-byte leak is 20 MB). */
const RSS_SLACK_BYTES = 20 * 1024 * 1024;

/** Size of the core's linear memory: every result view is a window on memory.buffer. */
function wasmBytes(engine: Engine): number {
  return engine.core.analyze('', LANG_ID.en).views.doc.buffer.byteLength;
}

function settledRss(): number {
  Bun.gc(true);
  Bun.gc(true);
  return process.memoryUsage().rss;
}

describe('memory', () => {
  it(`stays flat over ${CALLS.toLocaleString('en')} analyze calls on a ~100-word text`, async () => {
    const engine = await loadEngine();
    const wasmNow = () => wasmBytes(engine);
    const texts = [AI_EN, HUMAN_EN];
    for (let i = 0; i < WARM_UP; i++) engine.analyze(texts[i & 1]);
    const wasm0 = wasmNow();
    let sink = 0;
    // Two halves: a leak grows in both; allocator and GC settling (and other test files' leftovers
    // in this process) show in the first. The second half's growth is what is held per call.
    for (let i = 0; i < CALLS / 2; i++) sink += engine.analyze(texts[i & 1]).score;
    const rssHalf = settledRss();
    for (let i = 0; i < CALLS / 2; i++) sink += engine.analyze(texts[i & 1]).score;
    const rssEnd = settledRss();
    expect(sink).toBeGreaterThan(0);
    expect(wasmNow()).toBe(wasm0);
    expect(rssEnd - rssHalf).toBeLessThan(RSS_SLACK_BYTES);
  }, 45_000);

  it('grows linear memory once for a longer text, then never again', async () => {
    const engine = await loadEngine();
    const wasmNow = () => wasmBytes(engine);
    const long = AI_EN.repeat(40); // ~28k code units: larger than the initial 4096-unit text buffer
    const small = wasmNow();
    engine.analyze(long);
    const grown = wasmNow();
    expect(grown).toBeGreaterThan(small);
    for (let i = 0; i < 200; i++) {
      engine.analyze(long);
      engine.analyze(HUMAN_EN);
    }
    expect(wasmNow()).toBe(grown);
  });
});
