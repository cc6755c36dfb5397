/**
 * Issue 23 item 3: GET /health must see failing writes and answer fast. Real server processes.
 * Before: with the SQLite file on a full file system every detection got 503 store_unavailable
 * (SQLITE_FULL) while /health answered 200 {"store":"up"}; under a foreign write lock /health
 * took 1.0 s to say degraded.
 */
import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROSE } from '../http/helpers';
import { detectOn, runCommand, startServerProcess, type ServerProcess } from '../fixtures/server-process';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'fault-health-'));
const cleanup: Array<() => unknown> = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
  rmSync(dir, { recursive: true, force: true });
});

/** /health must answer within this, whatever the store is doing (a load balancer's check). */
const HEALTH_MAX_MS = 500;

/** One single-mode detection of PROSE. */
const detect = (server: ServerProcess, key: string) => detectOn(server, key, PROSE);

async function health(server: ServerProcess): Promise<{ status: number; body: Record<string, unknown>; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(`${server.base}/health`);
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, body, ms: performance.now() - t0 };
}

async function startOn(path: string, env: Record<string, string> = {}): Promise<{ server: ServerProcess; key: string }> {
  const fullEnv = { DATABASE_PATH: path, BOOTSTRAP_KEY: '0', WORKERS: '1', STORE_TIMEOUT_MS: '1000', ...env };
  const created = runCommand(['bun', 'src/main.ts', 'keys', 'create', '--plan', 'enterprise'], ROOT, fullEnv);
  expect(created.code).toBe(0);
  const server = await startServerProcess(['bun', 'src/main.ts', 'serve'], { cwd: ROOT, env: fullEnv });
  cleanup.push(() => server.stop());
  return { server, key: created.out.trim().split('\n').at(-1)! };
}

/** Mounts a 1 MiB tmpfs (needs root); null when that is not possible here. */
function smallTmpfs(): string | null {
  const mount = join(dir, 'tiny');
  mkdirSync(mount);
  const r = Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mount]);
  if (r.exitCode !== 0) return null;
  cleanup.push(() => Bun.spawnSync(['umount', '-l', mount]));
  return mount;
}

/** Fills the file system holding `folder` with a file; returns a function that deletes it. */
function fill(folder: string): () => void {
  const file = join(folder, 'filler');
  const chunk = new Uint8Array(16 * 1024);
  let written = 0;
  for (;;) {
    try {
      writeFileSync(file, chunk, { flag: 'a' });
      written += chunk.length;
    } catch {
      break;
    }
  }
  // The last bytes of a block as well.
  for (let size = 8192; size >= 1; size = Math.floor(size / 2)) {
    try {
      writeFileSync(file, new Uint8Array(size), { flag: 'a' });
    } catch {}
  }
  expect(written).toBeGreaterThan(0);
  return () => rmSync(file, { force: true });
}

describe('GET /health and failing writes', () => {
  const mount = smallTmpfs();
  it.skipIf(mount === null)(
    'turns 503 degraded with the reason while the disk is full, quickly, and recovers by itself',
    async () => {
      const { server, key } = await startOn(join(mount as string, 'db.sqlite'));
      expect((await detect(server, key)).status).toBe(200);
      expect((await health(server)).status).toBe(200);

      const free = fill(mount as string);
      // Detections fail to charge: nothing can be written.
      let failed = 0;
      for (let i = 0; i < 20 && failed < 3; i++) {
        const r = await detect(server, key);
        if (r.status === 503) {
          failed++;
          expect(((await r.json()) as { error: { code: string } }).error.code).toBe('store_unavailable');
        } else await r.arrayBuffer();
      }
      expect(failed).toBe(3);
      const down = await health(server);
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ status: 'degraded', store: 'down', reason: 'writes_failing' });
      expect(String(down.body.code)).toMatch(/^SQLITE_(FULL|IOERR)/);
      expect(down.ms).toBeLessThan(HEALTH_MAX_MS);
      console.log(`[store-health] disk full: /health ${down.status} ${String(down.body.code)} in ${down.ms.toFixed(0)} ms`);

      // Space again: the kept usage events are retried (at most 1 s apart) and health follows.
      free();
      let up = down;
      const t0 = performance.now();
      while (up.status !== 200 && performance.now() - t0 < 5000) {
        await Bun.sleep(100);
        up = await health(server);
      }
      expect(up.status).toBe(200);
      expect(up.body).toMatchObject({ status: 'ok', store: 'up' });
      console.log(`[store-health] space freed: /health 200 again after ${(performance.now() - t0).toFixed(0)} ms`);
      expect((await detect(server, key)).status).toBe(200);
      expect(server.lines.some((l) => l.includes('"status":500') || l.includes('"event":"unhandled_error"'))).toBe(false);
    },
    30_000,
  );
});

describe('GET /health under a foreign write lock', () => {
  it('says degraded (locked) within 0.5 s, and up once the lock is released', async () => {
    const path = join(dir, 'locked.sqlite');
    const { server, key } = await startOn(path);
    expect((await detect(server, key)).status).toBe(200);
    const holder = Bun.spawn(['bun', join(import.meta.dir, 'fixtures', 'hold-write-lock.ts'), path], {
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'inherit',
    });
    cleanup.push(() => holder.kill('SIGKILL'));
    const out = (holder.stdout as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await out.read()).value)).toContain('locked');
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await health(server));
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503, 503, 503]);
    expect(answers[0].body).toMatchObject({ status: 'degraded', store: 'down', reason: 'locked', code: 'SQLITE_BUSY' });
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(HEALTH_MAX_MS);
    console.log(`[store-health] foreign lock: /health 503 locked in ${answers.map((a) => a.ms.toFixed(0)).join(', ')} ms`);
    holder.stdin.write('release\n');
    holder.stdin.end();
    expect(new TextDecoder().decode((await out.read()).value)).toContain('released');
    expect((await health(server)).status).toBe(200);
  }, 30_000);
});
