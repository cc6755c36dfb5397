/**
 * Memory under sustained large single texts, against a real server process (issue 16, item 4):
 * a short version of `bun run soak` (bench/soak.ts runs 50 batches and 10,000 texts). With a low
 * MEMORY_LIMIT_MB the memory governor must keep RSS near the live data; without it, RSS grew by
 * ~0.5 MB per 0.85 MB text and was only returned when the process went idle.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { readFileSync } from 'node:fs';
import { corpusText } from '../../bench/corpus.ts';
import type { ServerProcess } from '../fixtures/server-process.ts';
import { startFaultServer, type FaultServer } from './fault-server.ts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const MB = 1024 * 1024;
/** The ceiling given to the server: its governor collects above half of it. */
const MEMORY_LIMIT_MB = 256;
/** 100 x 75k words fits the enterprise plan's 15M words a month. */
const TEXTS = 100;
const CONCURRENCY = 4;
/** ~0.5 MB of prose per text (75k words, ~497k characters), within the 512 Ki a text may have since issue 40 (the issue measured 0.85 MB). */
const TEXT_WORDS = 75_000;
const TEST_TIMEOUT_MS = 120_000;

let fault: FaultServer;
let server: ServerProcess;
let key = '';

beforeAll(async () => {
  fault = await startFaultServer('sustained-load', { MEMORY_LIMIT_MB: String(MEMORY_LIMIT_MB) });
  ({ server, key } = fault);
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  await fault?.stop();
});

/** Current RSS of the server process, from /proc. */
function rss(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kb ? Number(kb[1]) * 1024 : 0;
}

describe('sustained large single texts against a real server process', () => {
  it(
    `keeps RSS near MEMORY_LIMIT_MB (${MEMORY_LIMIT_MB}) over ${TEXTS} texts of 0.5 MB`,
    async () => {
      const bodies = Array.from({ length: 4 }, (_, v) => JSON.stringify({ text: corpusText(TEXT_WORDS, 300 + v) }));
      let peak = 0;
      let next = 0;
      const statuses: number[] = [];
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < TEXTS) {
            const i = next++;
            const response = await fetch(`${server.base}/api/detect`, {
              method: 'POST',
              headers: { 'x-api-key': key, 'content-type': 'application/json' },
              body: bodies[i % bodies.length],
            });
            await response.arrayBuffer();
            statuses.push(response.status);
            peak = Math.max(peak, rss(server.pid));
          }
        }),
      );
      const collections = server.lines.filter((l) => l.includes('"memory_collected"'));
      console.log(`[sustained-load] peak RSS ${(peak / MB).toFixed(0)} MB, ${collections.length} collections`);
      expect(statuses.every((s) => s === 200)).toBe(true);
      expect(collections.length).toBeGreaterThan(0);
      // Collections start at half the ceiling and repeat every eighth of it regrown; without them
      // this load reached 252 MB (measured on 09792da), with them ~190 MB.
      expect(peak).toBeLessThan(0.8 * MEMORY_LIMIT_MB * MB);
    },
    TEST_TIMEOUT_MS,
  );
});
