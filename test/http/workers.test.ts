import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { PROSE } from './helpers';
import { alive, childrenOf, startServerProcess, until, bootstrapKeyOf } from '../fixtures/server-process';
import { selfCommand, startWorkers } from '../../src/cluster';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'detector-workers-'));
const spawned: Subprocess[] = [];
const orphans: number[] = [];
afterAll(() => {
  for (const proc of spawned) if (proc.exitCode === null) proc.kill('SIGKILL');
  for (const pid of orphans) if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** One detection on a new TCP connection (SO_REUSEPORT spreads connections, not requests). */
async function detect(base: string, key: string): Promise<Response> {
  return fetch(`${base}/api/detect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, connection: 'close' },
    body: JSON.stringify({ text: PROSE }),
    keepalive: false,
  });
}

describe('WORKERS=2: two server processes share the port and one quota', () => {
  it('starts a worker that serves on the same port, charges exactly, restarts a dead worker and stops with its primary', async () => {
    const databasePath = join(dir, 'workers.sqlite');
    const server = await startServerProcess(['bun', 'src/main.ts', 'serve'], {
      cwd: ROOT,
      env: { DATABASE_PATH: databasePath, WORKERS: '2' },
    });
    spawned.push(server.proc);
    const key = await bootstrapKeyOf(server);
    expect(key).toBeDefined();
    const listening = JSON.parse(server.lines.find((l) => l.includes('"event":"listening"'))!);
    expect(listening.workers).toBe(2);
    await server.waitFor(/"event":"worker_listening"/);
    const [worker] = childrenOf(server.pid);
    expect(worker).toBeGreaterThan(0);

    // 12 detections over separate connections: both processes answer, the quota counts every word once.
    const responses = await Promise.all(Array.from({ length: 12 }, () => detect(server.base, key)));
    expect(responses.map((r) => r.status)).toEqual(Array(12).fill(200));
    const remaining = responses.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => b - a);
    expect(remaining).toEqual(Array.from({ length: 12 }, (_, i) => 10_000 - 60 * (i + 1)));
    // Every detection ran in some process and logged one line to the shared stdout.
    await until(() => server.lines.filter((l) => l.includes('"event":"request"')).length === 12);
    expect(server.lines.filter((l) => l.includes('"event":"request"')).length).toBe(12);
    // Both processes served some (the kernel hashes each new connection to a process: all 12 on one is a 1-in-2048 event).
    const servedBy = new Set(server.lines.filter((l) => l.includes('"event":"request"')).map((l) => JSON.parse(l).pid));
    expect([...servedBy].sort()).toEqual([server.pid, worker].sort());

    // A worker that dies is replaced.
    process.kill(worker, 'SIGKILL');
    await server.waitFor(/"event":"worker_exited"/);
    expect(await until(() => childrenOf(server.pid).some((pid) => pid !== worker))).toBe(true);
    const replacement = childrenOf(server.pid)[0];

    // SIGTERM to the primary stops the workers too.
    expect(await server.stop()).toBe(0);
    expect(await until(() => !alive(replacement))).toBe(true);
  }, 60_000);

  it('a worker exits on its own when its primary is killed with SIGKILL', async () => {
    const server = await startServerProcess(['bun', 'src/main.ts', 'serve'], {
      cwd: ROOT,
      env: { DATABASE_PATH: join(dir, 'orphan.sqlite'), WORKERS: '2', BOOTSTRAP_KEY: '0' },
    });
    spawned.push(server.proc);
    await server.waitFor(/"event":"worker_listening"/);
    const [worker] = childrenOf(server.pid);
    orphans.push(worker);
    server.proc.kill('SIGKILL');
    expect(await until(() => !alive(worker))).toBe(true);
  }, 30_000);

  it('restarts a worker that cannot start ever more slowly (1 s, 2 s, ...) and stops restarting on stop()', async () => {
    const events: Array<Record<string, unknown>> = [];
    const logger = {
      info() {},
      warn() {},
      error: (event: string, fields?: Record<string, unknown>) => void events.push({ event, ...fields }),
    };
    const workers = startWorkers({ count: 1, port: 1, logger, command: [process.execPath, '-e', 'process.exit(3)'] });
    expect(await until(() => events.length >= 2, 6_000)).toBe(true);
    await workers.stop();
    expect(events.slice(0, 2)).toMatchObject([
      { event: 'worker_exited', index: 1, code: 3, restartInMs: 1000 },
      { event: 'worker_exited', index: 1, code: 3, restartInMs: 2000 },
    ]);
    const seen = events.length;
    await Bun.sleep(2_500);
    expect(events.length).toBe(seen);
  }, 15_000);

  it('re-runs this program: bun with the entry script here, the binary alone when compiled', () => {
    expect(selfCommand(['serve'])).toEqual([process.execPath, Bun.main, 'serve']);
  });
});
