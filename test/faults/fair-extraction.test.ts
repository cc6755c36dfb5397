/**
 * Issue 23, hole 1: slow files must not hold everyone else's files back. Four batches of a 51 KB,
 * 300-page PDF whose pages share one compressed stream of ~2M no-op operators (under every
 * per-page limit; it held the one extraction worker for seconds each) run against a real server
 * process (`WORKERS=1`: one extraction worker on 2 cores), one key each, while a legitimate
 * 2-page PDF is sent again and again, one request at a time, with a fifth key. Every legitimate
 * request must be answered in < 1 s (median) and < 3 s (worst); before, the first waited behind
 * every hostile file queued ahead of it (not answered within 60 s). Prints what it measured.
 * FAIR_COPIES (files per hostile batch) and FAIR_LEGIT_TIMEOUT_MS change the load and how long one
 * legitimate request may wait. Then the cost of such files: a key whose files exhausted a budget
 * EXHAUSTED_FILES_PER_KEY times within a minute has its further PDF/DOCX/MD files refused at once
 * (`extract_throttled`), its TXT files still scored, other keys untouched.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { PROSE } from '../http/helpers.ts';
import { sharedStreamPdf } from '../fixtures/hostile-pdf.ts';
import { makePdf } from '../fixtures/make.ts';
import { EXHAUSTED_FILES_PER_KEY } from '../../src/modules/batch/exhausted.ts';
import { startFaultServer, type FaultServer } from './fault-server.ts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const HOSTILE_BATCHES = 4;
const COPIES = Number(process.env.FAIR_COPIES ?? 5);
const LEGIT_REQUESTS = 9;
/** Generous bounds for a shared 2-core machine: the issue's. */
const MEDIAN_BOUND_MS = 1_000;
const WORST_BOUND_MS = 3_000;
/** One legitimate request may not wait longer than this (it waited minutes before). */
const LEGIT_TIMEOUT_MS = Number(process.env.FAIR_LEGIT_TIMEOUT_MS ?? 10_000);
const TEST_TIMEOUT_MS = 120_000;

const LEGIT_TEXT = `${PROSE} ${PROSE}`.replace(/’/g, "'");
const LEGIT_WORDS = LEGIT_TEXT.split(' ').length;
const LEGIT_PDF = makePdf([
  Array.from({ length: Math.ceil(LEGIT_WORDS / 10) }, (_, i) =>
    LEGIT_TEXT.split(' ')
      .slice(i * 10, i * 10 + 10)
      .join(' '),
  ).join('\n'),
]);
const HOSTILE_PDF = sharedStreamPdf();

type Line = Record<string, unknown> & { type: string; fileName?: string; code?: string; message?: string };

let fault: FaultServer;

beforeAll(async () => {
  // Keys 0-3 hostile, 4 legitimate, 5 the one that gets throttled.
  fault = await startFaultServer('fair-extraction', {}, 5);
}, 60_000);

afterAll(async () => {
  await fault?.stop();
});

async function postBatch(files: readonly { name: string; bytes: Uint8Array }[], timeoutMs: number, key = fault.keys[4]) {
  const form = new FormData();
  for (const file of files) form.append('files[]', new File([file.bytes as Uint8Array<ArrayBuffer>], file.name));
  const started = performance.now();
  const response = await fetch(`${fault.server.base}/api/detect`, {
    method: 'POST',
    headers: { 'x-api-key': key },
    body: form,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  const lines = text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
  return { status: response.status, lines, ms: performance.now() - started };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe('fair extraction (issue 23, hole 1)', () => {
  it(
    `answers a small legitimate PDF in < 1 s (median) and < 3 s (worst) beside ${HOSTILE_BATCHES} hostile batches`,
    async () => {
      expect(HOSTILE_PDF.length).toBeLessThan(60_000);
      // Alone first: the worker and the detector are warm, and this is the latency to compare with.
      const alone = await postBatch([{ name: 'legit.pdf', bytes: LEGIT_PDF }], LEGIT_TIMEOUT_MS);
      expect(alone.status).toBe(200);
      const started = performance.now();
      let hostileDone = 0;
      const hostile = Array.from({ length: HOSTILE_BATCHES }, (_, b) =>
        postBatch(
          Array.from({ length: COPIES }, (_, i) => ({ name: `shared-${b}-${i}.pdf`, bytes: HOSTILE_PDF })),
          TEST_TIMEOUT_MS,
          fault.keys[b],
        ).finally(() => hostileDone++),
      );
      // Handled here too: a failed test stops the server under them, and that is not a second error.
      for (const batch of hostile) batch.catch(() => undefined);
      await Bun.sleep(300); // the hostile files are queued and one is being read
      const latencies: number[] = [];
      for (let i = 0; i < LEGIT_REQUESTS; i++) {
        const legit = await postBatch([{ name: 'legit.pdf', bytes: LEGIT_PDF }], LEGIT_TIMEOUT_MS).catch((error) => {
          console.log(`[fair-extraction] legitimate request ${i + 1} gave up after ${LEGIT_TIMEOUT_MS} ms: ${error}`);
          throw error;
        });
        expect(legit.status).toBe(200);
        expect(legit.lines.find((l) => l.type === 'result')).toMatchObject({ fileName: 'legit.pdf', format: 'pdf', words: LEGIT_WORDS });
        latencies.push(legit.ms);
      }
      const stillRunning = HOSTILE_BATCHES - hostileDone;
      const results = await Promise.all(hostile);
      const hostileMs = performance.now() - started;
      const worst = Math.max(...latencies);
      console.log(
        `[fair-extraction] legitimate PDF alone ${alone.ms.toFixed(0)} ms; beside ${HOSTILE_BATCHES} hostile batches of ${COPIES}: median ${median(latencies).toFixed(0)} ms, ` +
          `worst ${worst.toFixed(0)} ms (${latencies.map((ms) => ms.toFixed(0)).join(', ')}); ` +
          `hostile batches still running after the last one: ${stillRunning}; all hostile batches done after ${hostileMs.toFixed(0)} ms`,
      );
      // The load really overlapped every legitimate request.
      expect(stillRunning).toBeGreaterThan(0);
      expect(median(latencies)).toBeLessThan(MEDIAN_BOUND_MS);
      expect(worst).toBeLessThan(WORST_BOUND_MS);
      for (const batch of results) {
        expect(batch.status).toBe(200);
        const errors = batch.lines.filter((l) => l.type === 'error');
        expect(errors).toHaveLength(COPIES);
        for (const line of errors) {
          expect(line.code).toBe('extract_limit');
          expect(line.message).toBe('The PDF has more than 1000000 drawing instructions in all.');
        }
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    `refuses a key's PDF/DOCX/MD files at once after ${EXHAUSTED_FILES_PER_KEY} of them exhausted a budget within a minute`,
    async () => {
      const throttled = fault.keys[5];
      const copies = EXHAUSTED_FILES_PER_KEY + 2;
      const first = await postBatch(
        Array.from({ length: copies }, (_, i) => ({ name: `shared-${i}.pdf`, bytes: HOSTILE_PDF })),
        TEST_TIMEOUT_MS,
        throttled,
      );
      expect(first.status).toBe(200);
      const codes = first.lines.filter((l) => l.type === 'error').map((l) => l.code);
      // One extraction worker: the count is updated before the next file is admitted.
      expect(codes).toEqual([
        ...Array<string>(EXHAUSTED_FILES_PER_KEY).fill('extract_limit'),
        ...Array<string>(copies - EXHAUSTED_FILES_PER_KEY).fill('extract_throttled'),
      ]);
      const second = await postBatch(
        [
          { name: 'shared.pdf', bytes: HOSTILE_PDF },
          { name: 'legit.pdf', bytes: LEGIT_PDF },
          { name: 'essay.txt', bytes: new TextEncoder().encode(LEGIT_TEXT) },
        ],
        TEST_TIMEOUT_MS,
        throttled,
      );
      expect(second.status).toBe(200);
      const byName = new Map(second.lines.map((l) => [l.fileName, l]));
      for (const name of ['shared.pdf', 'legit.pdf']) {
        expect(byName.get(name)).toMatchObject({ type: 'error', code: 'extract_throttled' });
        expect(byName.get(name)?.message).toBe(
          `Too many files from this key hit a reading limit lately (${EXHAUSTED_FILES_PER_KEY} in 60 s): PDF, DOCX and Markdown files are refused for now; try again in a minute.`,
        );
      }
      expect(byName.get('essay.txt')).toMatchObject({ type: 'result', words: LEGIT_WORDS });
      // Another key is not affected.
      const other = await postBatch([{ name: 'legit.pdf', bytes: LEGIT_PDF }], LEGIT_TIMEOUT_MS);
      expect(other.lines.find((l) => l.type === 'result')).toMatchObject({ fileName: 'legit.pdf', words: LEGIT_WORDS });
      console.log(
        `[fair-extraction] ${copies} hostile files from one key: ${first.ms.toFixed(0)} ms; its next batch (refused PDFs, scored TXT): ${second.ms.toFixed(0)} ms`,
      );
    },
    TEST_TIMEOUT_MS,
  );
});
