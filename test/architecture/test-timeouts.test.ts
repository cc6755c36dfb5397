/**
 * Every test file sets the suite's per-test timeout itself (test/timeout.ts): Bun applies
 * `setDefaultTimeout` to the calling file only, so a file without it runs on the 5 s default and its
 * server, PostgreSQL and browser tests fail on a loaded machine.
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { Glob } from 'bun';
import { join } from 'node:path';
import { SUITE_TIMEOUT_MS } from '../timeout';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '..');

describe('test timeouts', () => {
  it('every test file calls setDefaultTimeout(SUITE_TIMEOUT_MS)', async () => {
    const files = [...new Glob('**/*.test.ts').scanSync(ROOT)];
    expect(files.length).toBeGreaterThan(50);
    const missing: string[] = [];
    for (const f of files) {
      if (!/^setDefaultTimeout\(SUITE_TIMEOUT_MS\);$/m.test(await Bun.file(join(ROOT, f)).text())) missing.push(f);
    }
    expect(missing).toEqual([]);
  });
});
