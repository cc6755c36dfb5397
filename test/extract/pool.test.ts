import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { ExtractPool, type TaskOwner } from '../../src/extract/pool.ts';
import { ExtractError } from '../../src/extract/errors.ts';
import { DEFAULT_EXTRACT_LIMITS } from '../../src/extract/limits.ts';
import { MAX_TEXT_CHARS_CEILING } from '../../src/contract/text-length.ts';
import { flateBombPdf } from '../fixtures/hostile-pdf.ts';
import { makeDocx, makePdf, makePng } from '../fixtures/make.ts';

const MB = 1024 * 1024;
import { SLEEP_MS } from '../fixtures/sleep-constants.ts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const LINES_PER_PAGE = 45;
const page = Array.from({ length: LINES_PER_PAGE }, (_, i) => `Line ${i} of a long page with plenty of ordinary words in it.`).join('\n');
/** 300 pages (the default limit), ~1.1 MB: big enough to take hundreds of ms in pdf.js. */
const BIG_PDF = makePdf(Array.from({ length: 300 }, () => page));

// Its 0.8M characters are past the default text limit (512 Ki, issue 40): the pool reads it under the highest one.
const pool = new ExtractPool({ size: 2, limits: { ...DEFAULT_EXTRACT_LIMITS, maxTextChars: MAX_TEXT_CHARS_CEILING } });
afterAll(() => pool.close());

describe('ExtractPool', () => {
  it('extracts DOCX and PDF in a worker with the same output as inline', async () => {
    const docx = await makeDocx(['Hola mundo.'], [['a', 'b']]);
    expect(await pool.extract(docx, 'a.docx')).toEqual({ format: 'docx', text: 'Hola mundo.\n\na\tb' });
    expect(await pool.extract(makePdf(['One.', 'Two.']), 'a.pdf')).toEqual({ format: 'pdf', text: 'One.\n\nTwo.' });
  });

  it('decodes TXT inline and parses MD in a worker', async () => {
    const sleepy = new ExtractPool({ size: 1, workerUrl: new URL('../fixtures/sleep-worker.ts', import.meta.url) });
    try {
      expect(await sleepy.extract(new TextEncoder().encode('Hi'), 'a.txt')).toEqual({ format: 'txt', text: 'Hi' });
      expect(await sleepy.extract(new TextEncoder().encode('# Hi'), 'a.md')).toEqual({ format: 'md', text: 'slept' });
    } finally {
      sleepy.close();
    }
    expect(await pool.extract(new TextEncoder().encode('# Hi'), 'a.md')).toEqual({ format: 'md', text: 'Hi' });
  });

  it('rejects with ExtractError codes from inside the worker', async () => {
    const error = await pool.extract(makePdf(['x'], { encrypted: true }), 'a.pdf').catch((e) => e);
    expect(error).toBeInstanceOf(ExtractError);
    expect(error.code).toBe('encrypted_pdf');
    expect((await pool.extract(makePng(), 'a.pdf').catch((e) => e)).code).toBe('unsupported_format');
  });

  it('keeps the event loop responsive while a 300-page PDF is extracted', async () => {
    await pool.extract(BIG_PDF, 'warm.pdf');
    let ticks = 0;
    let longestGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks++;
    }, 5);
    const started = performance.now();
    const result = await pool.extract(BIG_PDF, 'big.pdf');
    const elapsed = performance.now() - started;
    clearInterval(timer);
    expect(result.text.startsWith('Line 0 of a long page')).toBe(true);
    expect(elapsed).toBeGreaterThan(100);
    // Inline, pdf.js would block for the whole `elapsed`; in the pool the timer keeps firing.
    // Bounds are loose because other processes share the 2 cores.
    expect(ticks).toBeGreaterThan((elapsed / 5) * 0.3);
    expect(longestGap).toBeLessThan(Math.max(150, elapsed / 3));
  });

  it('runs as many tasks at once as it has workers', async () => {
    const sleepy = new ExtractPool({ size: 2, workerUrl: new URL('../fixtures/sleep-worker.ts', import.meta.url) });
    try {
      const docx = await makeDocx(['x']);
      await Promise.all([sleepy.extract(docx, 'w1.docx'), sleepy.extract(docx, 'w2.docx')]);
      const started = performance.now();
      const results = await Promise.all([0, 1, 2, 3].map((i) => sleepy.extract(docx, `${i}.docx`)));
      const elapsed = performance.now() - started;
      expect(results.map((r) => r.text)).toEqual(['slept', 'slept', 'slept', 'slept']);
      // 4 tasks of SLEEP_MS on 2 workers: 2 rounds, where one worker would need 4.
      expect(elapsed).toBeGreaterThanOrEqual(2 * SLEEP_MS - 5);
      expect(elapsed).toBeLessThan(3 * SLEEP_MS);
    } finally {
      sleepy.close();
    }
  });

  it('cancels a running task, replaces its worker and keeps working', async () => {
    const before = pool.replaced;
    const controller = new AbortController();
    const running = pool.extract(BIG_PDF, 'big.pdf', { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    const started = performance.now();
    const error = await running.catch((e) => e);
    expect(error.name).toBe('AbortError');
    expect(performance.now() - started).toBeLessThan(200);
    expect(pool.replaced).toBe(before + 1);
    expect((await pool.extract(makePdf(['after']), 'a.pdf')).text).toBe('after');
  });

  it('aborts queued and running tasks that share one signal (a client disconnect)', async () => {
    const controller = new AbortController();
    const tasks = [0, 1, 2, 3].map((i) => pool.extract(BIG_PDF, `${i}.pdf`, { signal: controller.signal }).catch((e) => e));
    expect(pool.pending).toBe(4);
    controller.abort();
    const results = await Promise.all(tasks);
    expect(results.map((r) => r.name)).toEqual(['AbortError', 'AbortError', 'AbortError', 'AbortError']);
    expect(pool.pending).toBe(0);
  });

  it('drops an aborted queued task without disturbing the running one', async () => {
    const sleepy = new ExtractPool({ size: 1, workerUrl: new URL('../fixtures/sleep-worker.ts', import.meta.url) });
    try {
      const docx = await makeDocx(['x']);
      const controller = new AbortController();
      const running = sleepy.extract(docx, 'running.docx');
      const queued = sleepy.extract(docx, 'queued.docx', { signal: controller.signal }).catch((e) => e);
      controller.abort();
      expect((await queued).name).toBe('AbortError');
      expect((await running).text).toBe('slept');
      expect(sleepy.replaced).toBe(0);
    } finally {
      sleepy.close();
    }
  });

  describe('fair queue (issue 23)', () => {
    /** Queues `tasks` (name, owner) on a one-worker sleep pool (200 ms each) in order; resolves with the order they finished in. */
    async function finishOrder(tasks: readonly [string, TaskOwner | undefined][]): Promise<string[]> {
      const sleepy = new ExtractPool({ size: 1, workerUrl: new URL('../fixtures/sleep-worker.ts', import.meta.url) });
      const docx = await makeDocx(['x']);
      const order: string[] = [];
      try {
        await Promise.all(tasks.map(([name, owner]) => sleepy.extract(docx, `${name}.docx`, { owner }).then(() => order.push(name))));
        expect(sleepy.pending).toBe(0);
        return order;
      } finally {
        sleepy.close();
      }
    }
    const a = { key: 'a', request: '1' };

    it("takes another key's single file next, not after the first key's queue", async () => {
      const order = await finishOrder([
        ['a1', a],
        ['a2', a],
        ['a3', a],
        ['a4', a],
        ['b1', { key: 'b', request: '2' }],
      ]);
      expect(order.indexOf('b1')).toBe(1);
      expect(order.filter((n) => n.startsWith('a'))).toEqual(['a1', 'a2', 'a3', 'a4']);
    });

    it("takes another request's file next within one key too", async () => {
      const order = await finishOrder([
        ['a1', a],
        ['a2', a],
        ['a3', a],
        ['a4', a],
        ['r1', { key: 'a', request: '2' }],
      ]);
      expect(order.indexOf('r1')).toBe(1);
    });

    it('shares the worker between keys, not between requests: a key with two requests gets half', async () => {
      const b = { key: 'b', request: '3' };
      const order = await finishOrder([
        ['a1', a],
        ['a2', a],
        ['a3', a],
        ['a4', { key: 'a', request: '2' }],
        ['a5', { key: 'a', request: '2' }],
        ['a6', { key: 'a', request: '2' }],
        ['b1', b],
        ['b2', b],
        ['b3', b],
      ]);
      // Alternating keys (timing may swap neighbours): b's three files are among the first seven.
      expect(order.slice(0, 7).filter((n) => n.startsWith('b'))).toHaveLength(3);
      expect(order.indexOf('b1')).toBe(1);
    });

    it('asks the gate before a worker takes a task, and tells it how every task that ran ended', async () => {
      const sleepy = new ExtractPool({ size: 1, workerUrl: new URL('../fixtures/sleep-worker.ts', import.meta.url) });
      const docx = await makeDocx(['x']);
      const ended: unknown[] = [];
      let open = true;
      const gate = {
        admit: () => (open ? undefined : new ExtractError('extract_throttled', 'no', { limit: 1, seconds: 60 })),
        ended: (error: unknown) => {
          ended.push(error);
          open = false; // the first task that ends closes the gate for the ones queued behind it
        },
      };
      try {
        const tasks = [1, 2, 3].map((i) => sleepy.extract(docx, `${i}.docx`, { gate }).catch((e) => e));
        const [first, second, third] = await Promise.all(tasks);
        expect(first).toEqual({ format: 'docx', text: 'slept' });
        expect(second).toMatchObject({ code: 'extract_throttled' });
        expect(third).toMatchObject({ code: 'extract_throttled' });
        expect(ended).toEqual([null]);
        expect(sleepy.pending).toBe(0);
      } finally {
        sleepy.close();
      }
    });

    it('keeps first in, first out for tasks without an owner (the CLI)', async () => {
      const order = await finishOrder([
        ['x1', undefined],
        ['x2', undefined],
        ['x3', undefined],
      ]);
      expect(order).toEqual(['x1', 'x2', 'x3']);
    });
  });

  it('rejects an already aborted signal at once', async () => {
    const error = await pool.extract(BIG_PDF, 'a.pdf', { signal: AbortSignal.abort() }).catch((e) => e);
    expect(error.name).toBe('AbortError');
  });

  it('times out a task with extract_timeout and replaces the worker', async () => {
    const slow = new ExtractPool({ size: 1, taskTimeoutMs: 20 });
    try {
      const error = await slow.extract(BIG_PDF, 'big.pdf').catch((e) => e);
      expect(error.code).toBe('extract_timeout');
      expect(slow.replaced).toBe(1);
    } finally {
      slow.close();
    }
  });

  it('replaces a worker that crashes', async () => {
    const crashing = new ExtractPool({ size: 1, workerUrl: new URL('../fixtures/crash-worker.ts', import.meta.url) });
    try {
      const error = await crashing.extract(await makeDocx(['x']), 'a.docx').catch((e) => e);
      expect(error.code).toBe('extract_failed');
      expect(crashing.replaced).toBe(1);
    } finally {
      crashing.close();
    }
  });

  it('prestarts its workers so the first file does not pay for spawning', async () => {
    const warm = new ExtractPool({ size: 2 });
    try {
      warm.prestart();
      expect(warm.workers).toBe(2);
      expect((await warm.extract(makePdf(['warm']), 'a.pdf')).text).toBe('warm');
      expect(warm.workers).toBe(2);
    } finally {
      warm.close();
    }
  });

  it('refuses bad configuration', () => {
    expect(() => new ExtractPool({ size: 0 })).toThrow(RangeError);
    expect(() => new ExtractPool({ taskTimeoutMs: 0 })).toThrow(RangeError);
    expect(() => new ExtractPool({ heapLimitBytes: 0 })).toThrow(RangeError);
    expect(() => new ExtractPool({ rssLimitBytes: -1 })).toThrow(RangeError);
  });
});

describe('ExtractPool memory ceilings', () => {
  /** Loose per-file limits, so only the memory ceilings can stop a text flood. */
  const LOOSE = { ...DEFAULT_EXTRACT_LIMITS, maxPdfPageChars: 1e9, maxPdfPageOperators: 1e9, maxPdfOperators: 1e9 };
  /** A flood left running by a failed test would skew every memory test after it: generous. */
  const MEMORY_TEST_TIMEOUT_MS = 30_000;

  /** Waits until process RSS is back under `bytes` (the terminated worker's memory is released). */
  async function rssBelow(bytes: number): Promise<void> {
    for (let i = 0; i < 50 && process.memoryUsage.rss() > bytes; i++) {
      Bun.gc(true);
      await Bun.sleep(100);
    }
  }

  it(
    'stops a file at the worker heap ceiling, checked inside the worker, and keeps working',
    async () => {
      const small = new ExtractPool({ size: 1, heapLimitBytes: 64 * MB });
      try {
        const error = await small.extract(flateBombPdf(24 * MB), 'flood.pdf', { limits: LOOSE }).catch((e) => e);
        expect(error).toMatchObject({ code: 'extract_limit', params: { kind: 'memory', limit: 64 } });
        expect((await small.extract(makePdf(['after']), 'a.pdf')).text).toBe('after');
      } finally {
        small.close();
      }
    },
    MEMORY_TEST_TIMEOUT_MS,
  );

  it(
    'terminates running workers when the process passes its RSS ceiling',
    async () => {
      // The heap ceiling is out of reach; the RSS ceiling is 150 MB above where the process is now.
      const ceiling = process.memoryUsage.rss() + 150 * MB;
      const guarded = new ExtractPool({ size: 1, heapLimitBytes: 64 * 1024 * MB, rssLimitBytes: ceiling });
      try {
        const error = await guarded.extract(flateBombPdf(24 * MB), 'flood.pdf', { limits: LOOSE }).catch((e) => e);
        expect(error).toMatchObject({ code: 'extract_limit', params: { kind: 'memory', limit: Math.round(ceiling / MB) } });
        expect(guarded.replaced).toBe(1);
        await rssBelow(ceiling - 50 * MB);
        expect((await guarded.extract(makePdf(['after']), 'a.pdf')).text).toBe('after');
      } finally {
        guarded.close();
      }
    },
    MEMORY_TEST_TIMEOUT_MS,
  );

  it('retires a worker whose heap stays above half its ceiling after a task', async () => {
    const heavy = new ExtractPool({ size: 1, workerUrl: new URL('../fixtures/heavy-worker.ts', import.meta.url) });
    try {
      const docx = await makeDocx(['x']);
      expect((await heavy.extract(docx, 'a.docx')).text).toBe('heavy');
      expect(heavy.recycled).toBe(1);
      expect(heavy.workers).toBe(0);
      expect((await heavy.extract(docx, 'b.docx')).text).toBe('heavy');
      expect(heavy.recycled).toBe(2);
      expect(heavy.replaced).toBe(0);
    } finally {
      heavy.close();
    }
  });
});
