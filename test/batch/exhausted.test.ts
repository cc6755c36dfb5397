import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { ExtractError, limitError } from '../../src/extract/errors.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXHAUSTED_FILES_PER_KEY, ExhaustedFiles, exhaustsBudget } from '../../src/modules/batch/exhausted.ts';
import { openSqliteStore } from '../../src/store/sqlite';

setDefaultTimeout(SUITE_TIMEOUT_MS);

describe('files that exhaust an extraction budget, per key (issue 23)', () => {
  it('counts limits hit inside the worker and timeouts, not the page count, other failures or aborts', () => {
    expect(exhaustsBudget(limitError('pdf_operators', 1, 'x'))).toBe(true);
    expect(exhaustsBudget(limitError('memory', 1, 'x'))).toBe(true);
    expect(exhaustsBudget(new ExtractError('extract_timeout', 'x'))).toBe(true);
    expect(exhaustsBudget(limitError('pdf_pages', 300, 'x'))).toBe(false);
    expect(exhaustsBudget(new ExtractError('corrupt_file', 'x'))).toBe(false);
    expect(exhaustsBudget(new DOMException('aborted', 'AbortError'))).toBe(false);
    expect(exhaustsBudget(null)).toBe(false);
  });

  it('refuses a key at the limit within the window, per key, then gives one file back per window', async () => {
    let now = 1_000_000;
    const files = new ExhaustedFiles({ limit: 3, windowMs: 60_000, now: () => now });
    const gate = await files.gate('a');
    for (let i = 0; i < 3; i++) {
      expect(gate.admit()).toBeUndefined();
      gate.ended(limitError('pdf_operators', 1, 'x'));
      gate.ended(null); // a file that was read fine costs nothing
      now += 1_000;
    }
    const refused = gate.admit();
    expect(refused).toBeInstanceOf(ExtractError);
    expect(refused).toMatchObject({ code: 'extract_throttled', status: 429, params: { limit: 3, seconds: 60 } });
    expect((await files.gate('b')).admit()).toBeUndefined();
    expect(files.count('a')).toBe(3);
    now += 55_000; // 58 s after the first: still refused
    expect(gate.admit()).toBeInstanceOf(ExtractError);
    now += 2_001; // a minute after the first: one file back
    expect(files.count('a')).toBe(2);
    expect(gate.admit()).toBeUndefined();
    now += 3 * 60_000;
    expect(files.count('a')).toBe(0);
  });

  it('holds for the key across processes sharing the store (issue 29, 5): two throttles, one SQLite file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exhausted-'));
    const stores = [0, 1].map(() => openSqliteStore(join(dir, 'shared.sqlite'), { timeoutMs: 3000 }));
    try {
      let now = 5_000_000;
      // Two server processes: each its own throttle (and mirror), the same database.
      const [first, second] = stores.map((store) => new ExhaustedFiles({ rates: store.rates, now: () => now }));
      const gateA = await first.gate('7');
      for (let i = 0; i < EXHAUSTED_FILES_PER_KEY; i++) {
        expect(gateA.admit()).toBeUndefined();
        await first.record('7');
        now += 100;
      }
      expect(gateA.admit()).toMatchObject({ code: 'extract_throttled' });
      // Before, the other process counted from zero and admitted ten more.
      const gateB = await second.gate('7');
      expect(gateB.admit()).toMatchObject({ code: 'extract_throttled' });
      expect(second.count('7')).toBe(EXHAUSTED_FILES_PER_KEY);
      // Another key is not affected.
      expect((await second.gate('8')).admit()).toBeUndefined();
    } finally {
      for (const store of stores) await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('goes on with its own count when the store fails, and reports each failure', async () => {
    const failures: unknown[] = [];
    const broken = { take: () => Promise.reject(new Error('disk I/O error')) };
    const files = new ExhaustedFiles({ rates: broken, limit: 2 });
    const gate = await files.gate('9', (error) => failures.push(error));
    expect(gate.admit()).toBeUndefined();
    gate.ended(limitError('pdf_operators', 1, 'x'));
    gate.ended(limitError('pdf_operators', 1, 'x'));
    expect(gate.admit()).toMatchObject({ code: 'extract_throttled' });
    await Bun.sleep(0);
    expect(failures).toHaveLength(3); // the read at the start, then each recorded file
  });
});
