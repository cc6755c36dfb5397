/**
 * Issue 16 item 9: starting on a database the process cannot write prints one clear line (the
 * path, the cause, what to do) and exits 1, instead of a raw SQLite stack trace. As root every
 * file is writable, so the server runs as `nobody` there.
 */
import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../fixtures/server-process';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'fault-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const IS_ROOT = process.getuid?.() === 0;
const CAN_DROP = !IS_ROOT || Bun.spawnSync(['runuser', '-u', 'nobody', '--', 'true']).exitCode === 0;

/** `bun src/main.ts serve` as a user that cannot write `databasePath` (nobody, when we are root). */
function serveAsOther(databasePath: string) {
  const command = ['bun', 'src/main.ts', 'serve'];
  const env = { DATABASE_PATH: databasePath, BOOTSTRAP_KEY: '0', PORT: '0', HOST: '127.0.0.1', HOME: tmpdir() };
  if (!IS_ROOT) return runCommand(command, ROOT, env);
  return runCommand(
    ['runuser', '-u', 'nobody', '--', 'env', `PATH=${process.env.PATH}`, ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...command],
    ROOT,
    {},
  );
}

describe.if(CAN_DROP)('starting on a database that cannot be written', () => {
  it('prints one line with the path, the cause and what to do, and exits 1', () => {
    chmodSync(dir, 0o755);
    // A read-only directory: the database (and its directory) cannot be created.
    const readOnly = join(dir, 'ro');
    mkdirSync(readOnly, { mode: 0o555 });
    // An existing database in a directory this user cannot write: SQLite cannot create its WAL.
    const foreign = join(dir, 'foreign');
    mkdirSync(foreign, { mode: 0o755 });
    expect(
      runCommand(['bun', 'src/main.ts', 'keys', 'create', '--plan', 'free'], ROOT, { DATABASE_PATH: join(foreign, 'x.sqlite') }).code,
    ).toBe(0);
    if (!IS_ROOT) chmodSync(foreign, 0o555);
    for (const [path, cause] of [
      [join(readOnly, 'data', 'detector.sqlite'), 'permission denied'],
      [join(foreign, 'x.sqlite'), 'readonly database'],
    ]) {
      const result = serveAsOther(path);
      expect(result.code).toBe(1);
      const lines = result.err.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toStartWith(`Cannot open the SQLite database ${path}: `);
      expect(lines[0]).toContain(cause);
      expect(lines[0]).toContain('set DATABASE_PATH to a writable location');
      expect(result.err).not.toContain('    at ');
    }
    chmodSync(foreign, 0o755);
  });
});
