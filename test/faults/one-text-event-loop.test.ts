/**
 * Issue 40 item 6: one large text must not hold the event loop. Every text is scored in one
 * synchronous call, so the longest text a request may bring is how long every other request of the
 * process waits. Before: a 16 MB calibration text made another key's detection wait 1.9 s, a 10 MB
 * TXT in a batch 1.2 s. Now a text may have at most MAX_TEXT_CHARS characters (512 Ki by default,
 * src/contract/text-length.ts); longer ones are refused before they are counted or scored.
 *
 * A real server process (`WORKERS=1`, SQLite): while one key's request runs, another key sends
 * detections one after another; each must be answered within ONE_SECOND (the bound). Texts
 * over the limit are refused at once, so that bound holds on any machine. For texts at the limit (CJK,
 * the slowest shape measured: ~27k sentences) the wait is one text's scoring: 0.5-1.1 s here at load
 * averages of 5-8, 1.6-2.8 times what this process took for the same text at the start; on a machine
 * other work slows down it is more, so their bound is ONE_SECOND or, when this process itself needs
 * more than a quarter of it to score that text now, AT_LIMIT_FACTOR times that. Prints what it measured.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { humanTexts } from '../../scripts/lib/human-texts';
import { DEFAULT_MAX_TEXT_CHARS } from '../../src/contract';
import { createDetector } from '../../src/detector';
import { PROSE } from '../http/helpers';
import { detectOn } from '../fixtures/server-process';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { startFaultServer, type FaultServer } from './fault-server';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** The bound on another key's detection while one request is scored. */
const ONE_SECOND = 1_000;
/** The wait beside a text at the limit, over this process's own time for it: 1.6-2.8 measured (the server's collections, explanations, the probe's own work). */
const AT_LIMIT_FACTOR = 4;
const NOTES = humanTexts(60);
const fill = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
/** Prose and CJK exactly at the limit: the slowest shapes per character measured (docs/faults.md). */
const PROSE_AT_LIMIT = fill(`${humanTexts(400, 7).join('\n\n')}\n\n`, DEFAULT_MAX_TEXT_CHARS);
const CJK_AT_LIMIT = fill('这是一个测试句子，我们在这里写很多字。', DEFAULT_MAX_TEXT_CHARS);

let fault: FaultServer;
/** The bound for texts at the limit (see the header), set in beforeAll. */
let atLimitBoundMs = ONE_SECOND;
beforeAll(async () => {
  const detector = await createDetector();
  const times = [0, 1, 2].map(() => {
    const t0 = performance.now();
    detector.analyze(CJK_AT_LIMIT);
    return performance.now() - t0;
  });
  const median = times.sort((a, b) => a - b)[1];
  atLimitBoundMs = Math.max(ONE_SECOND, AT_LIMIT_FACTOR * median);
  console.log(
    `this process scores ${DEFAULT_MAX_TEXT_CHARS} characters of CJK in ${median.toFixed(0)} ms: bound at the limit ${atLimitBoundMs.toFixed(0)} ms`,
  );
  fault = await startFaultServer('one-text-event-loop', {}, 1);
  // Warm: the first detections pay for the JIT.
  for (let i = 0; i < 5; i++) await detectOn(fault.server, fault.keys[1], PROSE);
}, 60_000);
afterAll(async () => {
  await fault?.stop();
});

/**
 * Runs `load` (one key's request) while the other key sends detections one after another; returns
 * the load's answer and the slowest detection (ms).
 */
async function whileLoaded<T>(load: () => Promise<T>): Promise<{ result: T; worstMs: number; probes: number }> {
  let done = false;
  let worstMs = 0;
  let probes = 0;
  const probing = (async () => {
    while (!done) {
      const t0 = performance.now();
      const response = await detectOn(fault.server, fault.keys[1], PROSE);
      await response.arrayBuffer();
      expect(response.status).toBe(200);
      worstMs = Math.max(worstMs, performance.now() - t0);
      probes++;
    }
  })();
  try {
    const result = await load();
    done = true;
    // The detection sent while the load ran counts too.
    await probing;
    return { result, worstMs, probes };
  } finally {
    done = true;
    await probing;
  }
}

async function calibrate(texts: string[]) {
  const response = await fetch(`${fault.server.base}/v1/calibrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': fault.keys[0] },
    body: JSON.stringify({ name: 'Load', texts }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function batch(name: string, text: string) {
  const form = new FormData();
  form.append('files[]', new File([text], name));
  const response = await fetch(`${fault.server.base}/v1/detect`, { method: 'POST', headers: { 'x-api-key': fault.keys[0] }, body: form });
  const lines = (await response.text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; code?: string; kind?: string });
  return { status: response.status, lines };
}

describe('one large text and the event loop (issue 40 item 6)', () => {
  it("answers another key's detections within 1 s while a 16 MB calibration text is sent", async () => {
    // Sentences of 100+ characters: under the sentence limit (src/extract/sentences.ts), as the audit's text was.
    const huge = fill(
      'The committee met again today and talked for hours about the budget, the library roof and the new computers. ',
      16 * 1024 * 1024,
    );
    const { result, worstMs, probes } = await whileLoaded(() => calibrate([huge, ...NOTES]));
    console.log(
      `16 MB calibration text: ${result.status}, skipped ${result.body.skipped}; worst other detection ${worstMs.toFixed(0)} ms (${probes})`,
    );
    expect(result.status).toBe(201);
    expect(result.body.skipped).toBe(1);
    expect(worstMs).toBeLessThan(ONE_SECOND);
  });

  it("answers another key's detections within 1 s while a batch brings a 10 MB TXT", async () => {
    const tenMb = fill('The committee met again today and talked for hours. ', 10 * 1024 * 1024);
    const { result, worstMs, probes } = await whileLoaded(() => batch('minutes.txt', tenMb));
    const line = result.lines.find((l) => l.type === 'error' || l.type === 'result');
    console.log(`10 MB TXT in a batch: ${JSON.stringify(line).slice(0, 200)}; worst other detection ${worstMs.toFixed(0)} ms (${probes})`);
    expect(line).toMatchObject({ type: 'error', code: 'extract_limit' });
    expect(worstMs).toBeLessThan(ONE_SECOND);
  });

  it("answers another key's detections within 1 s while a batch file at the limit is scored", async () => {
    for (const [name, text] of [
      ['prose.txt', PROSE_AT_LIMIT],
      ['cjk.txt', CJK_AT_LIMIT],
    ] as const) {
      const scored = await whileLoaded(() => batch(name, text));
      const line = scored.result.lines.find((l) => l.type === 'result' || l.type === 'error');
      console.log(
        `${name} of ${text.length} characters in a batch: ${line?.type}; worst other detection ${scored.worstMs.toFixed(0)} ms (${scored.probes})`,
      );
      expect(line?.type).toBe('result');
      expect(scored.worstMs).toBeLessThan(atLimitBoundMs);
    }
  });

  it("answers another key's detections within 1 s while the longest single text is scored", async () => {
    // Three UTF-8 bytes a character: what fits in a 1 MiB JSON body (MAX_BODY_BYTES).
    const longest = CJK_AT_LIMIT.slice(0, 340_000);
    const scored = await whileLoaded(() => detectOn(fault.server, fault.keys[0], longest));
    console.log(
      `single CJK text of ${longest.length} characters: ${scored.result.status}; worst other detection ${scored.worstMs.toFixed(0)} ms (${scored.probes})`,
    );
    expect(scored.result.status).toBe(200);
    expect(scored.worstMs).toBeLessThan(atLimitBoundMs);
  });

  it("answers another key's detections within 1 s while calibration texts at the limit are scored", async () => {
    const calibration = await whileLoaded(() => calibrate([PROSE_AT_LIMIT, CJK_AT_LIMIT, PROSE_AT_LIMIT, ...NOTES]));
    console.log(
      `3 calibration texts of ${DEFAULT_MAX_TEXT_CHARS} characters: ${calibration.result.status}; worst other detection ${calibration.worstMs.toFixed(0)} ms (${calibration.probes})`,
    );
    expect(calibration.result.status).toBe(201);
    expect(calibration.result.body.skipped).toBe(0);
    expect(calibration.worstMs).toBeLessThan(atLimitBoundMs);
  });
});
