/**
 * Issue 44 item 8 (the margin): one batch of 5,000 files of ~9.5 KB (MAX_FILES=5000) must not hold
 * the event loop: another key's detections, sent one after another while the batch is read, planned
 * and its first files scored, are each answered well within round five's 1 s bound (the audit: 896 ms
 * on a quiet machine, past 1 s on a busy one). The client leaves after its first results (the rest is
 * 5,000 files of scoring, one file per turn, which never held the loop), so the test stays short.
 * A real server process (`WORKERS=1`, SQLite). Prints what it measured.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { humanTexts } from '../../scripts/lib/human-texts';
import { PROSE } from '../http/helpers';
import { detectOn } from '../fixtures/server-process';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { startFaultServer, type FaultServer } from './fault-server';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** The bound on another key's slowest detection beyond the form's parse: half of round five's 1 s. */
const BOUND_MS = 500;

const FILES = 5_000;
/** ~9.5 KB each: 5,000 of them stay under MAX_BATCH_BYTES (50 MB). */
const FILE_CHARS = 9_500;
const NOTES = humanTexts(200, 11).join('\n\n');

let fault: FaultServer;
beforeAll(async () => {
  fault = await startFaultServer('batch-many-files', { MAX_FILES: String(FILES) }, 1);
  for (let i = 0; i < 5; i++) await detectOn(fault.server, fault.keys[1], PROSE);
}, 60_000);
afterAll(async () => {
  await fault?.stop();
});

describe('a batch of 5,000 files and the event loop (issue 44 item 8)', () => {
  it(`answers another key's detections within ${BOUND_MS} ms beyond the form's parse while 5,000 files are read and planned`, async () => {
    const form = new FormData();
    for (let i = 0; i < FILES; i++) {
      const start = (i * 997) % (NOTES.length - FILE_CHARS);
      form.append('files[]', new File([`File ${i}. ${NOTES.slice(start, start + FILE_CHARS)}`], `f${i}.txt`));
    }
    const encoded = new Request('http://x/', { method: 'POST', body: form });
    // Read before the body: its boundary is the body's.
    const contentType = encoded.headers.get('content-type')!;
    const body = await encoded.arrayBuffer();
    let done = false;
    const waits: number[] = [];
    const probing = (async () => {
      while (!done) {
        const t0 = performance.now();
        const response = await detectOn(fault.server, fault.keys[1], PROSE);
        await response.arrayBuffer();
        expect(response.status).toBe(200);
        waits.push(performance.now() - t0);
      }
    })();
    const t0 = performance.now();
    const hangUp = new AbortController();
    const response = await fetch(`${fault.server.base}/v1/detect`, {
      method: 'POST',
      headers: { 'x-api-key': fault.keys[0], 'content-type': contentType },
      body,
      signal: hangUp.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let text = '';
    let firstAt = 0;
    // Read until 20 results have come (the planning is over, scoring under way), then leave.
    while ((text.match(/"type":"result"/g) ?? []).length < 20) {
      const { done: end, value } = await reader.read();
      if (end) break;
      text += new TextDecoder().decode(value);
      firstAt ||= performance.now() - t0;
    }
    const elapsed = performance.now() - t0;
    // Bun parses the multipart body in one native call that nothing in the server can slice (0.5-2.9 s
    // here): the server says how long reading the form took (`batch_form_slow`), and the bound is beyond it.
    await Bun.sleep(100); // the server's log lines are written at the end of its turn
    const slowLine = [...fault.server.lines, ...fault.server.errLines].find((l) => l.includes('"batch_form_slow"'));
    const slow = slowLine ? (JSON.parse(slowLine) as { ms: number }) : undefined;
    const parseMs: number = slow?.ms ?? 0;
    const boundMs = BOUND_MS + parseMs;
    hangUp.abort();
    done = true;
    await probing;
    const sorted = [...waits].sort((a, b) => a - b);
    const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))];
    console.log(
      `5,000 files: first line after ${firstAt.toFixed(0)} ms, 20 results after ${elapsed.toFixed(0)} ms; ` +
        `the form read in ${parseMs.toFixed(0)} ms (bound ${boundMs.toFixed(0)} ms); another key's ${waits.length} detections: median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`,
    );
    expect(waits.length).toBeGreaterThan(5);
    expect(sorted.at(-1)!).toBeLessThan(boundMs);
  });
});
