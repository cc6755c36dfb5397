/**
 * Issue 23 item 2: text made of tiny sentences. Before: a 10 MB TXT of "Go. " (2.5M sentences)
 * took one server process to 2.2 GB RSS (MEMORY_LIMIT_MB 1024) and stalled /health 1.8 s; three
 * such batches at once, 3.5 GB and 4.6 s; ~1 GB stayed resident. Scoring keeps a record per
 * sentence, so a text may have only so many sentences for its length (src/extract/sentences.ts):
 * such files are refused before they are scored. Real server process; RSS sampled every 50 ms and
 * /health pinged back to back throughout.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { treeRssMb } from '../../bench/proc';
import { AI_EN } from '../engine/texts';
import { startFaultServer, type FaultServer } from './fault-server';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const MEMORY_LIMIT_MB = 1024;
/** The ceiling: 20% over MEMORY_LIMIT_MB. */
const MAX_RSS_MB = 1.2 * MEMORY_LIMIT_MB;
const HEALTH_MAX_MS = 500;
const TEN_MB = 10 * 1024 * 1024;

let fault: FaultServer;
beforeAll(async () => {
  fault = await startFaultServer('fault-tiny', { MEMORY_LIMIT_MB: String(MEMORY_LIMIT_MB) });
}, 30_000);
afterAll(() => fault?.stop());

/** Samples RSS and /health latency until stopped; returns the peaks. */
function watch(server: FaultServer['server']) {
  let stopped = false;
  let peakRss = 0;
  let worstHealth = 0;
  let pings = 0;
  const rss = (async () => {
    while (!stopped) {
      peakRss = Math.max(peakRss, await treeRssMb(server.pid));
      await Bun.sleep(50);
    }
  })();
  const health = (async () => {
    while (!stopped) {
      const t0 = performance.now();
      const r = await fetch(`${server.base}/health`);
      await r.arrayBuffer();
      worstHealth = Math.max(worstHealth, performance.now() - t0);
      pings++;
      await Bun.sleep(20);
    }
  })();
  return async () => {
    stopped = true;
    await Promise.all([rss, health]);
    return { peakRss, worstHealth, pings };
  };
}

type Line = Record<string, unknown> & { type: string };
async function batch(files: File[]): Promise<Line[]> {
  const form = new FormData();
  for (const file of files) form.append('files[]', file);
  const res = await fetch(`${fault.server.base}/api/detect`, { method: 'POST', headers: { 'X-API-Key': fault.key }, body: form });
  expect(res.status).toBe(200);
  return (await res.text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line)
    .filter((l) => l.type === 'result' || l.type === 'error');
}

describe('text made of tiny sentences', () => {
  it('10 MB alone, then three batches at once: refused per file, RSS and /health within bounds, memory back near idle', async () => {
    const { server } = fault;
    await Bun.sleep(500);
    const idle = await treeRssMb(server.pid);
    // Encoded before the clock starts: this process's own work must not delay its /health pings.
    const go = 'Go. '.repeat(TEN_MB / 4);
    const file = (name: string, text: string) => new File([text], name);
    const [goTxt, go1, a2, go3, essay] = [
      file('go.txt', go),
      file('go-1.txt', go),
      file('a-2.txt', 'a. '.repeat(Math.floor(TEN_MB / 3))),
      file('go-3.md', go),
      file('essay.txt', AI_EN),
    ];
    // 520,000 characters: within the text limit (512 Ki, issue 40), so it is the sentences that refuse it.
    const singleBody = JSON.stringify({ text: 'Go. '.repeat(130_000) });
    const stop = watch(server);
    const lines = await batch([goTxt, essay]);
    expect(lines.map((l) => [l.type, l.code ?? null])).toEqual([
      ['error', 'extract_limit'],
      ['result', null],
    ]);
    const batches = await Promise.all([batch([go1]), batch([a2]), batch([go3, essay])]);
    expect(batches.map((b) => b.map((l) => l.code ?? l.type))).toEqual([['extract_limit'], ['extract_limit'], ['extract_limit', 'result']]);
    // Single mode: 0.5 MB of tiny sentences.
    const single = await fetch(`${server.base}/api/detect`, {
      method: 'POST',
      headers: { 'X-API-Key': fault.key, 'Content-Type': 'application/json' },
      body: singleBody,
    });
    expect(single.status).toBe(413);
    expect(((await single.json()) as { error: { code: string } }).error.code).toBe('too_many_sentences');
    const seen = await stop();
    await Bun.sleep(2000);
    const after = await treeRssMb(server.pid);
    console.log(
      `[tiny-sentences] RSS idle ${idle.toFixed(0)} MB, peak ${seen.peakRss.toFixed(0)} MB, after ${after.toFixed(0)} MB; /health worst ${seen.worstHealth.toFixed(0)} ms over ${seen.pings} pings`,
    );
    expect(seen.peakRss).toBeLessThan(MAX_RSS_MB);
    expect(seen.worstHealth).toBeLessThan(HEALTH_MAX_MS);
    expect(seen.pings).toBeGreaterThan(5);
    // Near idle: the uploads and texts are dropped (the allocator may keep some pages).
    expect(after).toBeLessThan(idle + 200);
    expect(server.lines.some((l) => l.includes('"status":500') || l.includes('"event":"unhandled_error"'))).toBe(false);
  }, 120_000);
});
