import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { join } from 'node:path';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '..', '..');

// pdf.js replaces globalThis.navigator when it loads in a thread, and Bun's availableParallelism()
// reads navigator.hardwareConcurrency: a pool module imported afterwards once got size NaN and
// every batch in that process answered 500 (seen when test/extract/pdf.test.ts ran first).
const SCRIPT = `
const { extractText } = await import('./src/extract/index.ts');
const { makePdf } = await import('./test/fixtures/make.ts');
await extractText(makePdf(['Hello there.']), 'a.pdf');
const { ExtractPool, DEFAULT_POOL_SIZE } = await import('./src/extract/pool.ts');
const pool = new ExtractPool();
const { text } = await pool.extract(makePdf(['Pooled text.']), 'b.pdf');
pool.close();
console.log(JSON.stringify({ size: DEFAULT_POOL_SIZE, text }));
`;

describe('extraction pool size', () => {
  it('stays a positive integer when pdf.js was loaded in this thread before the pool module', async () => {
    const proc = Bun.spawn(['bun', '-e', SCRIPT], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    const { size, text } = JSON.parse(out.trim());
    expect(Number.isInteger(size) && size >= 1).toBe(true);
    expect(text).toBe('Pooled text.');
  });
});
