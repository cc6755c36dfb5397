import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const dir = mkdtempSync(join(tmpdir(), 'detector-compiled-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('inside bun build --compile', () => {
  it('applies the embedded SQLite migrations, carries the PostgreSQL ones, and serves the Swagger assets with no files beside the binary', () => {
    const binary = join(dir, 'probe');
    const build = Bun.spawnSync(['bun', 'build', '--compile', join(import.meta.dir, 'fixtures', 'compiled-entry.ts'), '--outfile', binary]);
    expect(build.exitCode).toBe(0);
    const run = Bun.spawnSync([binary, join(dir, 'db', 'x.sqlite')], { cwd: dir });
    expect(run.stderr.toString()).toBe('');
    const { tables, postgresStatements, sizes } = JSON.parse(run.stdout.toString());
    expect(tables).toBe(10);
    // The PostgreSQL migrations are inside the binary too (applied to a real server in postgres.test.ts).
    expect(postgresStatements).toBeGreaterThanOrEqual(6);
    expect(sizes[0]).toBeGreaterThan(500_000);
    expect(sizes[1]).toBeGreaterThan(50_000);
    expect(sizes[2]).toBeGreaterThan(100);
  });
});
