/**
 * Issue 15 item 3: the port belongs to one instance. A second server on a taken port exits 1
 * with a clear message before it touches its database, while the first (WORKERS=2, sharing the
 * port through SO_REUSEPORT) keeps answering every request; a foreign program holding the port,
 * shared or not, is refused the same way.
 */
import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { freePort, runCommand, startServerProcess, type ServerProcess } from '../fixtures/server-process';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'detector-port-'));
const spawned: Subprocess[] = [];
afterAll(() => {
  for (const proc of spawned) if (proc.exitCode === null) proc.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** `bun src/main.ts serve` to completion: what a second instance prints and its exit code. */
function serveOnce(port: number, databasePath: string, host = '127.0.0.1') {
  return Bun.spawn(['bun', 'src/main.ts', 'serve'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: host, DATABASE_PATH: databasePath, WORKERS: '1' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
}

/** GET /health on a new connection each time (SO_REUSEPORT spreads connections), until `stop` resolves. */
async function hammer(base: string, stop: Promise<unknown>): Promise<{ ok: number; failed: string[] }> {
  let done = false;
  void stop.then(() => (done = true));
  let ok = 0;
  const failed: string[] = [];
  const one = async () => {
    while (!done) {
      try {
        const response = await fetch(`${base}/health`, { headers: { connection: 'close' }, keepalive: false });
        if (response.status === 200) ok++;
        else failed.push(`status ${response.status}`);
        await response.arrayBuffer();
      } catch (error) {
        failed.push((error as Error).message);
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, one));
  return { ok, failed };
}

describe('one instance per port', () => {
  it('refuses a second server on a taken port, before it opens its database, and the first loses no request', async () => {
    const port = freePort();
    const first: ServerProcess = await startServerProcess(['bun', 'src/main.ts', 'serve'], {
      cwd: ROOT,
      port,
      env: { DATABASE_PATH: join(dir, 'first.sqlite'), WORKERS: '2', BOOTSTRAP_KEY: '0' },
    });
    spawned.push(first.proc);
    await first.waitFor(/"event":"worker_listening"/);

    for (const host of ['127.0.0.1', '0.0.0.0']) {
      const databasePath = join(dir, `second-${host}.sqlite`);
      const second = serveOnce(port, databasePath, host);
      spawned.push(second);
      const load = hammer(first.base, second.exited);
      const [code, err] = await Promise.all([second.exited, new Response(second.stderr).text()]);
      const { ok, failed } = await load;
      expect(code).toBe(1);
      expect(err.trim()).toBe(
        `Cannot start: Port ${port} is already served by another ai-detector on this machine. Stop it first, or set PORT to a free port.`,
      );
      // It stopped before the store: no database was created, no key printed.
      expect(existsSync(databasePath)).toBe(false);
      expect(await new Response(second.stdout).text()).toBe('');
      expect(failed).toEqual([]);
      expect(ok).toBeGreaterThan(0);
    }
    // Still one instance, both of its processes serving.
    expect((await fetch(`${first.base}/health`)).status).toBe(200);
    expect(await first.stop()).toBe(0);
  }, 60_000);

  it('refuses a port another program holds, whether it shares it (SO_REUSEPORT) or not', async () => {
    for (const reusePort of [true, false]) {
      const port = freePort();
      const stranger = Bun.serve({ hostname: '127.0.0.1', port, reusePort, fetch: () => new Response('stranger') });
      try {
        const databasePath = join(dir, `stranger-${reusePort}.sqlite`);
        const result = runCommand(['bun', 'src/main.ts', 'serve'], ROOT, {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_PATH: databasePath,
        });
        expect(result.code).toBe(1);
        expect(result.err.trim()).toBe(
          `Cannot start: 127.0.0.1:${port} is already in use by another program. Stop it first, or set PORT to a free port.`,
        );
        expect(existsSync(databasePath)).toBe(false);
        // The stranger still has every connection: nothing joined it.
        expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('stranger');
      } finally {
        stranger.stop(true);
      }
    }
  }, 30_000);

  it('frees the port when the server stops: a new instance starts on it at once', async () => {
    const port = freePort();
    const env = { DATABASE_PATH: join(dir, 'reuse.sqlite'), WORKERS: '1', BOOTSTRAP_KEY: '0' };
    const first = await startServerProcess(['bun', 'src/main.ts', 'serve'], { cwd: ROOT, port, env });
    spawned.push(first.proc);
    expect(await first.stop()).toBe(0);
    const second = await startServerProcess(['bun', 'src/main.ts', 'serve'], { cwd: ROOT, port, env });
    spawned.push(second.proc);
    expect(second.port).toBe(port);
    expect((await fetch(`${second.base}/health`)).status).toBe(200);
    expect(await second.stop()).toBe(0);
  }, 30_000);
});
