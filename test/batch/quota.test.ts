import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { chargeWords } from '../../src/modules/quota';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { ExtractPool } from '../../src/extract/pool';
import { createBatchHandler } from '../../src/modules/batch';
import { detector, freshStore, keyOn, PROSE } from '../http/helpers';
import { closeBatchPools, batchForm, makeBatchApp, postBatch, readLines, sampleBatch, wordsUsed } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

afterAll(closeBatchPools);

const FREE_WORDS = 10_000;

describe('batch mode: quota', () => {
  it('charges exactly the words of the scored files, once, and sends the X-RateLimit-* of that charge', async () => {
    const { app, db, store, newKey } = makeBatchApp();
    const key = await newKey();
    const { uploads, texts } = await sampleBatch();
    const form = batchForm([...uploads, ['empty.txt', ''], ['short.txt', 'Too short to score.']]);
    const response = await postBatch(app, key.key, form);
    const expectedWords = texts.reduce((n, text) => n + detector().countWords(text), 0);
    // Charged before the first line: the headers already say so.
    expect(response.headers.get('x-ratelimit-limit')).toBe(String(FREE_WORDS));
    expect(response.headers.get('x-ratelimit-remaining')).toBe(String(FREE_WORDS - expectedWords));
    expect(wordsUsed(db, key.id)).toBe(expectedWords);
    const lines = await readLines(response);
    const scored = lines.filter((l) => l.type === 'result').reduce((n, l) => n + (l.words as number), 0);
    expect(scored).toBe(expectedWords);
    expect(wordsUsed(db, key.id)).toBe(expectedWords);
    const calls = db.$client.query('SELECT calls FROM monthly_usage WHERE key_id = ?').get(key.id) as { calls: number };
    expect(calls.calls).toBe(1);
    await store.usage.flush();
    const event = db.$client.query('SELECT mode, status, words FROM usage_events WHERE key_id = ?').get(key.id);
    expect(event).toEqual({ mode: 'batch', status: 200, words: expectedWords });
  });

  it('answers a plain 429 quota_exceeded JSON (not a stream) and charges nothing when the files need more than is left', async () => {
    const { app, db, store, newKey } = makeBatchApp();
    const key = await newKey();
    const { uploads, texts } = await sampleBatch();
    const needed = texts.reduce((n, text) => n + detector().countWords(text), 0);
    // Leave one word too few for the whole batch, though enough for any single file.
    expect((await chargeWords(store.quota, key.row, FREE_WORDS - needed + 1)).ok).toBe(true);
    const before = wordsUsed(db, key.id);
    const response = await postBatch(app, key.key, batchForm(uploads));
    expect(response.status).toBe(429);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('x-ratelimit-remaining')).toBe(String(needed - 1));
    // No Retry-After on a monthly quota (issue 28): the reset is X-RateLimit-Reset and resetAt.
    expect(response.headers.get('retry-after')).toBeNull();
    const body = await response.json();
    expect(body.success).toBe(false);
    expect(body.error.code).toBe('quota_exceeded');
    expect(body.error.message).toContain(`${needed} words`);
    expect(wordsUsed(db, key.id)).toBe(before);
  });

  it('lets a batch through that uses the last word of the month exactly', async () => {
    const { app, store, newKey } = makeBatchApp();
    const key = await newKey();
    const words = detector().countWords(PROSE);
    await chargeWords(store.quota, key.row, FREE_WORDS - 2 * words);
    const response = await postBatch(
      app,
      key.key,
      batchForm([
        ['a.txt', PROSE],
        ['b.txt', PROSE],
      ]),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await readLines(response)).filter((l) => l.type === 'result').length).toBe(2);
  });

  it('charges nothing (and counts no call) when no file can be scored', async () => {
    const { app, db, newKey } = makeBatchApp();
    const key = await newKey('trial');
    const response = await postBatch(
      app,
      key.key,
      batchForm([
        ['empty.txt', ''],
        ['x.txt', 'four words only here'],
      ]),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining')).toBe(String(FREE_WORDS));
    expect((await readLines(response)).map((l) => l.code ?? l.type)).toEqual([
      'progress',
      'no_text',
      'progress',
      'text_too_short',
      'complete',
    ]);
    expect(db.$client.query('SELECT COUNT(*) AS n FROM monthly_usage').get()).toEqual({ n: 0 });
  });

  it('refuses a trial key that has used all its calls before reading the files', async () => {
    const { app, db, newKey } = makeBatchApp();
    const key = await newKey('trial');
    db.$client.run(`INSERT INTO monthly_usage (key_id, period, words_used, calls) VALUES (${key.id}, '2000-01', 0, 500)`);
    const response = await postBatch(app, key.key, batchForm([['a.txt', PROSE]]));
    expect(response.status).toBe(429);
    expect((await response.json()).error.code).toBe('trial_calls_exhausted');
  });

  it('lets only one of two concurrent batches through when together they need more than the month has', async () => {
    const { app, db, store, newKey } = makeBatchApp();
    const key = await newKey();
    const words = detector().countWords(PROSE);
    // Room for 100 files of PROSE minus one word: each batch (60 files' worth) fits alone, not both.
    await chargeWords(store.quota, key.row, FREE_WORDS - (100 * words - 1));
    const big = PROSE.repeat(20);
    const uploads = [
      ['a.txt', big],
      ['b.txt', big],
      ['c.txt', big],
    ] as [string, string][];
    const [first, second] = await Promise.all([postBatch(app, key.key, batchForm(uploads)), postBatch(app, key.key, batchForm(uploads))]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 429]);
    const ok = first.status === 200 ? first : second;
    expect((await readLines(ok)).filter((l) => l.type === 'result').length).toBe(3);
    expect(wordsUsed(db, key.id)).toBe(FREE_WORDS - (100 * words - 1) + 60 * words);
  });

  it('answers the 429 in the language of the lang form field', async () => {
    const { app, store, newKey } = makeBatchApp();
    const key = await newKey();
    // 25 words left: enough to read the form (any file needs 20), not for the 60 of PROSE.
    await chargeWords(store.quota, key.row, FREE_WORDS - 25);
    const response = await postBatch(app, key.key, batchForm([['a.txt', PROSE]], { lang: 'es' }));
    expect(response.status).toBe(429);
    expect(response.headers.get('content-language')).toBe('es');
    expect((await response.json()).error.message).toStartWith(
      'No quedan palabras suficientes este mes: esta petición necesita 60 palabras y quedan 25 de 10000.',
    );
  });
});

describe('batch mode: quota before work (issue 16)', () => {
  it('answers 429 before reading a byte of the body when fewer words are left than any file needs', async () => {
    const { app, store, newKey } = makeBatchApp();
    const key = await newKey();
    await chargeWords(store.quota, key.row, FREE_WORDS);
    let pulled = 0;
    // A body that never ends: the request can only be answered if nobody waits for it.
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode('--x\r\n'));
        return new Promise((resolve) => setTimeout(resolve, 50));
      },
    });
    const started = performance.now();
    const response = await postBatch(app, key.key, endless, { headers: { 'content-type': 'multipart/form-data; boundary=x' } });
    expect(response.status).toBe(429);
    expect(performance.now() - started).toBeLessThan(1000);
    const { error } = await response.json();
    expect(error.code).toBe('quota_exceeded');
    // Issue 32: the batch was never read, so the message says what any batch needs, not "this request needs".
    expect(error.message).toStartWith(
      'Not enough words left this month: a batch needs at least 20 words and 0 of 10000 remain, so the batch was not read.',
    );
    expect(error).toMatchObject({ unit: 'words', needed: 20, remaining: 0 });
    expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(response.headers.get('retry-after')).toBeNull();
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('stops extracting as soon as the files counted need more words than are left', async () => {
    const aborted: string[] = [];
    const started: string[] = [];
    // TXT files answer at once; the "PDFs" take 5 s unless their extraction is aborted.
    const pool = {
      async extract(bytes: Uint8Array, fileName: string, options: { signal?: AbortSignal }) {
        started.push(fileName);
        if (fileName.endsWith('.txt')) return { format: 'txt', text: new TextDecoder().decode(bytes) };
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, 5000);
          options.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            aborted.push(fileName);
            reject(new DOMException('aborted', 'AbortError'));
          });
        });
        return { format: 'pdf', text: PROSE };
      },
    } as unknown as ExtractPool;
    const config = loadConfig({ DATABASE_PATH: ':memory:', BOOTSTRAP_KEY: '0' });
    const store = freshStore();
    const app = createApp({ config, store, detector: detector(), handleBatch: createBatchHandler({ pool: () => pool }) });
    const key = await keyOn(store);
    await chargeWords(store.quota, key.row, FREE_WORDS - 100); // 100 words left
    const big = PROSE.repeat(5); // 300 words
    const t0 = performance.now();
    const response = await postBatch(
      app,
      key.key,
      batchForm([
        ['slow1.pdf', 'x'],
        ['big.txt', big],
        ['slow2.pdf', 'x'],
        ['slow3.pdf', 'x'],
      ]),
    );
    expect(response.status).toBe(429);
    expect(performance.now() - t0).toBeLessThan(2000);
    const body = await response.json();
    expect(body.error.code).toBe('quota_exceeded');
    expect(body.error.message).toContain('300 words');
    expect(aborted.sort()).toEqual(['slow1.pdf', 'slow2.pdf', 'slow3.pdf']);
    expect(wordsUsed(store.db, key.id)).toBe(FREE_WORDS - 100);
  });
});
