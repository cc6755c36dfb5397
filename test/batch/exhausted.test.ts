import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { ExtractError, limitError } from '../../src/extract/errors.ts';
import { ExhaustedFiles, exhaustsBudget } from '../../src/modules/batch/exhausted.ts';

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

  it('refuses a key at the limit within the window, per key, and admits it again once the window has passed', () => {
    let now = 1_000_000;
    const files = new ExhaustedFiles(3, 60_000, () => now);
    const gate = files.gate('a');
    for (let i = 0; i < 3; i++) {
      expect(gate.admit()).toBeUndefined();
      gate.ended(limitError('pdf_operators', 1, 'x'));
      gate.ended(null); // a file that was read fine costs nothing
      now += 1_000;
    }
    const refused = gate.admit();
    expect(refused).toBeInstanceOf(ExtractError);
    expect(refused).toMatchObject({ code: 'extract_throttled', status: 429, params: { limit: 3, seconds: 60 } });
    expect(files.gate('b').admit()).toBeUndefined();
    now += 57_001; // the first one has left the window
    expect(files.count('a')).toBe(2);
    expect(gate.admit()).toBeUndefined();
    now += 60_000;
    expect(files.count('a')).toBe(0);
  });
});
