import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { join } from 'node:path';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const LOGGER = join(import.meta.dir, '../../src/http/logger.ts');

/** Runs a script that logs through the default (buffered stdout) logger; returns its stdout lines. */
function run(body: string): string[] {
  const script = `import { createJsonLogger } from ${JSON.stringify(LOGGER)};\nconst logger = createJsonLogger();\n${body}`;
  const proc = Bun.spawnSync(['bun', '-e', script], { stdout: 'pipe', stderr: 'pipe' });
  expect(proc.stderr.toString()).toBe('');
  return proc.stdout.toString().trim().split('\n').filter(Boolean);
}

describe('buffered stdout logger', () => {
  it('writes every line, in order, when the process ends on its own', () => {
    const lines = run("for (let i = 0; i < 3000; i++) logger.info('request', { i });");
    expect(lines.length).toBe(3000);
    expect(lines.map((l) => JSON.parse(l).i)).toEqual(Array.from({ length: 3000 }, (_, i) => i));
  });

  it('writes the lines still queued when process.exit() is called in the same turn', () => {
    const lines = run("logger.info('a'); logger.warn('b', { n: 1 }); process.exit(0);");
    expect(lines.map((l) => JSON.parse(l))).toMatchObject([
      { level: 'info', event: 'a' },
      { level: 'warn', event: 'b', n: 1 },
    ]);
  });
});
