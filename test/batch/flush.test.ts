import { afterAll, afterEach, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { batchStream, type StreamEnd } from '../../src/modules/batch/stream';
import type { PlannedFile } from '../../src/modules/batch/plan';
import { silentLogger } from '../../src/http';
import type { Detector } from '../../src/detector/types';
import { detector, PROSE } from '../http/helpers';
import { closeBatchPools, batchForm, makeBatchApp, postBatch, readChunk, recordingDetector, wordsUsed, type Upload } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

afterAll(closeBatchPools);

const FILES = 5;
const uploads: Upload[] = Array.from({ length: FILES }, (_, i) => [`essay${i}.txt`, `${PROSE} Essay number ${i}.`]);
const wordsPerFile = detector().countWords(uploads[0][1] as string);

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

let servers: { stop(force?: boolean): unknown }[] = [];
afterEach(() => {
  for (const server of servers) server.stop(true);
  servers = [];
});

describe('batch mode: incremental flush', () => {
  it('sends each line as its own chunk and scores a file only when its turn comes', async () => {
    const { detector: slow, calls } = recordingDetector(detector());
    const { app, newKey } = makeBatchApp({}, slow);
    const response = await postBatch(app, (await newKey()).key, batchForm(uploads));
    const reader = response.body!.getReader();
    // The first line is out before any file has been scored, let alone the last.
    expect(JSON.parse(await readChunk(reader))).toEqual({ type: 'progress', index: 0, fileName: 'essay0.txt', total: FILES });
    expect(calls.length).toBe(0);
    expect(JSON.parse(await readChunk(reader))).toMatchObject({ type: 'result', index: 0 });
    expect(calls.length).toBe(1);
    for (let i = 1; i < FILES - 1; i++) {
      expect(JSON.parse(await readChunk(reader))).toMatchObject({ type: 'progress', index: i });
      expect(calls.length).toBe(i);
      expect(JSON.parse(await readChunk(reader))).toMatchObject({ type: 'result', index: i });
      expect(calls.length).toBe(i + 1);
    }
    expect(JSON.parse(await readChunk(reader))).toMatchObject({ type: 'progress', index: FILES - 1 });
    // The last file's line and the complete line leave together (issue 33: a client holding every
    // result holds the end of the stream, and so does the answer kept for its retry).
    const last = (await readChunk(reader)).trimEnd().split('\n');
    expect(last.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ type: 'result', index: FILES - 1 }),
      { type: 'complete', total: FILES },
    ]);
    expect((await reader.read()).done).toBe(true);
  });

  it('over real HTTP, the first line reaches the client before the last file is scored', async () => {
    const STALL_MS = 120;
    const { detector: slow, calls } = recordingDetector(detector(), STALL_MS);
    const { app, newKey } = makeBatchApp({}, slow);
    app.listen({ port: 0, hostname: '127.0.0.1' });
    servers.push(app);
    const key = (await newKey()).key;
    const response = await fetch(`http://127.0.0.1:${app.server!.port}/api/detect`, {
      method: 'POST',
      headers: { 'x-api-key': key },
      body: batchForm(uploads),
    });
    expect(response.status).toBe(200);
    const arrivals: { line: Record<string, unknown>; at: number }[] = [];
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of response.body! as unknown as AsyncIterable<Uint8Array>) {
      const at = performance.now();
      buffered += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffered.indexOf('\n')) !== -1) {
        arrivals.push({ line: JSON.parse(buffered.slice(0, nl)), at });
        buffered = buffered.slice(nl + 1);
      }
    }
    expect(arrivals.length).toBe(FILES * 2 + 1);
    expect(calls.length).toBe(FILES);
    const lastScoringStarted = calls[FILES - 1].at;
    expect(arrivals[0].line).toMatchObject({ type: 'progress', index: 0 });
    expect(arrivals[0].at).toBeLessThan(lastScoringStarted);
    // Lines arrive spread over the scoring time, not in one burst at the end.
    expect(arrivals.at(-1)!.at - arrivals[0].at).toBeGreaterThan((FILES - 1) * STALL_MS * 0.8);
  });
});

describe('batch mode: client disconnect', () => {
  it('stops scoring when the reader cancels, and refunds the words of the files never scored', async () => {
    const { detector: slow, calls } = recordingDetector(detector());
    const { app, db, store, newKey, logs } = makeBatchApp({}, slow);
    const key = await newKey();
    const abort = new AbortController();
    const response = await postBatch(app, key.key, batchForm(uploads), { signal: abort.signal });
    expect(wordsUsed(db, key.id)).toBe(FILES * wordsPerFile);
    const reader = response.body!.getReader();
    await readChunk(reader);
    await readChunk(reader);
    expect(calls.length).toBe(1);
    abort.abort();
    await reader.cancel();
    await sleep(50);
    expect(calls.length).toBe(1);
    expect(wordsUsed(db, key.id)).toBe(wordsPerFile);
    await store.usage.flush();
    const event = db.$client.query('SELECT status, words, error_code AS code FROM usage_events').get();
    expect(event).toEqual({ status: 499, words: wordsPerFile, code: 'client_closed' });
    expect(logs.some((line) => line.includes('"status":499'))).toBe(true);
  });

  it('does not charge a file scored while the client was hanging up (issue 16)', async () => {
    const abort = new AbortController();
    const base = detector();
    let analyses = 0;
    // The client hangs up while the second file is being scored (analysis is synchronous: the abort is seen after it).
    const hangingUp: Detector = {
      countWords: (text) => base.countWords(text),
      profileSample: (text) => base.profileSample(text),
      analyze(text, options) {
        if (++analyses === 2) abort.abort();
        return base.analyze(text, options);
      },
    };
    const { app, db, newKey } = makeBatchApp({}, hangingUp);
    const key = await newKey();
    const response = await postBatch(app, key.key, batchForm(uploads), { signal: abort.signal });
    const reader = response.body!.getReader();
    const lines: string[] = [];
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        lines.push(new TextDecoder().decode(value));
      }
    } catch {
      // The stream may end with an error once the client is gone.
    }
    await sleep(50);
    expect(analyses).toBe(2);
    expect(lines.filter((line) => line.includes('"type":"result"')).length).toBe(1);
    // Only the first file, whose result was sent, stays charged.
    expect(wordsUsed(db, key.id)).toBe(wordsPerFile);
  });

  it('over real HTTP, a client that goes away mid-stream stops the remaining work', async () => {
    const STALL_MS = 60;
    const { detector: slow, calls } = recordingDetector(detector(), STALL_MS);
    const { app, db, newKey } = makeBatchApp({}, slow);
    app.listen({ port: 0, hostname: '127.0.0.1' });
    servers.push(app);
    const key = await newKey();
    const abort = new AbortController();
    const many: Upload[] = Array.from({ length: 12 }, (_, i) => [`e${i}.txt`, `${PROSE} Essay number ${i}.`]);
    const response = await fetch(`http://127.0.0.1:${app.server!.port}/api/detect`, {
      method: 'POST',
      headers: { 'x-api-key': key.key },
      body: batchForm(many),
      signal: abort.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    abort.abort();
    await sleep(12 * STALL_MS);
    expect(calls.length).toBeLessThan(12);
    const scored = calls.length;
    await sleep(4 * STALL_MS);
    expect(calls.length).toBe(scored);
    // Only what was sent stays charged: the file being scored at the disconnect is refunded.
    await sleep(20);
    expect(wordsUsed(db, key.id)).toBeLessThanOrEqual(scored * wordsPerFile);
    expect(wordsUsed(db, key.id)).toBeGreaterThanOrEqual((scored - 1) * wordsPerFile);
  });

  it('stops extraction when the client leaves before the stream starts, and charges nothing', async () => {
    const { makePdf } = await import('../fixtures/make');
    const { app, db, store, newKey, logs } = makeBatchApp();
    const key = await newKey();
    const page = Array.from({ length: 45 }, () => 'The committee reviewed every line of the report before approving it today').join('\n');
    const heavy = makePdf(Array.from({ length: 100 }, () => page));
    const abort = new AbortController();
    const pending = postBatch(
      app,
      key.key,
      batchForm([
        ['a.pdf', heavy],
        ['b.pdf', heavy],
      ]),
      { signal: abort.signal },
    );
    await sleep(30);
    abort.abort();
    const response = await pending;
    expect(response.status).toBe(499);
    expect(wordsUsed(db, key.id)).toBe(0);
    // Logged as 499 client_closed, but no usage event: nothing was charged, the key made no request that was served.
    await store.usage.flush();
    expect(db.$client.query('SELECT count(*) AS n FROM usage_events').get()).toEqual({ n: 0 });
    expect(logs.some((line) => line.includes('"status":499') && line.includes('"code":"client_closed"'))).toBe(true);
  });

  it('ends (and refunds everything) without a single pull when the client left before the stream was built', async () => {
    const { detector: rec, calls } = recordingDetector(detector());
    const plan: PlannedFile[] = [0, 1].map((index) => ({
      index,
      fileName: `f${index}.txt`,
      file: new File([PROSE], 'x'),
      field: 'files[]',
      ok: true,
      format: 'txt',
      text: PROSE,
      words: 60,
    }));
    const ends: StreamEnd[] = [];
    const gone = new AbortController();
    gone.abort();
    batchStream({
      plan,
      detector: rec,
      modelVersion: 'test',
      sensitivity: 'conservative',
      lang: 'en',
      client: gone.signal,
      budget: new AbortController().signal,
      budgetSeconds: 120,
      logger: silentLogger,
      onEnd: (end) => ends.push(end),
    });
    await sleep(10);
    expect(ends).toEqual([{ deliveredWords: 0, completed: false }]);
    expect(calls.length).toBe(0);
  });
});
