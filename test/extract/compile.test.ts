import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'extract-compile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(cmd: string[], cwd: string) {
  const result = Bun.spawnSync(cmd, { cwd, stdout: 'pipe', stderr: 'pipe' });
  return { code: result.exitCode, out: result.stdout.toString(), err: result.stderr.toString() };
}

describe('extraction pool in a compiled binary', () => {
  it('extracts DOCX and PDF when the worker is listed as an extra entrypoint, then exits', () => {
    const binary = join(dir, 'check');
    const build = run(['bun', 'build', '--compile', 'test/fixtures/compile-check.ts', 'src/extract/worker.ts', '--outfile', binary], ROOT);
    expect(build.code).toBe(0);
    // Run from another folder: nothing may be read from the source tree.
    const started = performance.now();
    const out = run([binary], dir);
    expect(out.code).toBe(0);
    expect(out.err).not.toContain('Warning');
    expect(
      out.out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { format: 'docx', text: 'Hola desde el binario.\n\ncelda\tdos' },
      { format: 'pdf', text: 'PDF in the binary.' },
    ]);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
