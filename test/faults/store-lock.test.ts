/**
 * Issue 16 item 3: another process holding SQLite's write lock (an admin's `sqlite3`, a backup)
 * must not freeze the server. Real server process, real second connection holding BEGIN IMMEDIATE.
 * Before: each process froze up to 5 s per attempt (busy_timeout), /health included; the first
 * request got 500 internal_error and usage events were dropped.
 */
import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROSE } from '../http/helpers';
import { detectOn, runCommand, startServerProcess, type ServerProcess } from '../fixtures/server-process';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'fault-lock-'));
const cleanup: Array<() => unknown> = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
  rmSync(dir, { recursive: true, force: true });
});

/** The deadline the server is given: a request waits this long for the lock, then 503. */
const STORE_TIMEOUT_MS = 1000;

/** One single-mode detection of PROSE. */
const detect = (server: ServerProcess, key: string) => detectOn(server, key, PROSE);

/** Longest gap seen while pinging a route that needs no store, during `ms`. */
async function slowestAnswer(server: ServerProcess, ms: number): Promise<number> {
  let worst = 0;
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const t0 = performance.now();
    const r = await fetch(`${server.base}/swagger`);
    await r.arrayBuffer();
    worst = Math.max(worst, performance.now() - t0);
  }
  return worst;
}

describe('a foreign write lock on the SQLite file', () => {
  it('keeps the event loop and /health answering, answers 503 store_unavailable after the deadline, keeps usage events, recovers', async () => {
    const path = join(dir, 'locked.sqlite');
    const env = { DATABASE_PATH: path, BOOTSTRAP_KEY: '0', WORKERS: '1', STORE_TIMEOUT_MS: String(STORE_TIMEOUT_MS) };
    const created = runCommand(['bun', 'src/main.ts', 'keys', 'create', '--plan', 'free'], ROOT, env);
    expect(created.code).toBe(0);
    const key = created.out.trim().split('\n').at(-1)!;
    const server = await startServerProcess(['bun', 'src/main.ts', 'serve'], { cwd: ROOT, env });
    cleanup.push(() => server.stop());
    expect((await detect(server, key)).status).toBe(200);
    await Bun.sleep(150); // its usage event is written

    const holder = Bun.spawn(['bun', join(import.meta.dir, 'fixtures', 'hold-write-lock.ts'), path], {
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'inherit',
    });
    cleanup.push(() => holder.kill('SIGKILL'));
    const holderOut = (holder.stdout as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await holderOut.read()).value)).toContain('locked');

    // A detection waits for the lock on timers, not in SQLite: other requests are served meanwhile.
    const t0 = performance.now();
    const pending = detect(server, key).then(async (r) => ({ r, body: await r.json(), ms: performance.now() - t0 }));
    const worst = await slowestAnswer(server, STORE_TIMEOUT_MS * 0.8);
    expect(worst).toBeLessThan(250);
    const health = await fetch(`${server.base}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'degraded', store: 'down' });
    const { r, body, ms } = await pending;
    expect(r.status).toBe(503);
    expect(body.error.code).toBe('store_unavailable');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(ms).toBeGreaterThan(STORE_TIMEOUT_MS * 0.8);
    expect(ms).toBeLessThan(STORE_TIMEOUT_MS + 2000);

    // The 503's usage event is written behind (50 ms) and fails under the lock: it is kept. (This
    // wait used to be hidden in /health, which took 1.0 s under the lock; it now answers at once.)
    await Bun.sleep(300);
    // Released: service resumes by itself; the event of the 503 request was kept and is written now.
    holder.stdin.write('release\n');
    holder.stdin.end();
    expect(new TextDecoder().decode((await holderOut.read()).value)).toContain('released');
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      status = (await detect(server, key)).status;
      if (status !== 200) await Bun.sleep(100);
    }
    expect(status).toBe(200);
    expect((await fetch(`${server.base}/health`)).status).toBe(200);
    // The kept event is retried (backoff up to 1 s), then the write-behind delay.
    const db = new Database(path, { readonly: true });
    const events = () => db.query('SELECT status, error_code AS code FROM usage_events ORDER BY id').all();
    for (let i = 0; i < 40 && events().length < 3; i++) await Bun.sleep(100);
    const stored = events();
    const used = db.query('SELECT words_used AS used, calls FROM monthly_usage').get();
    db.close();
    if (stored.length < 3) console.log(server.lines.filter((l) => !l.includes('"event":"request"') || l.includes('503')).join('\n'));
    expect(stored).toEqual([
      { status: 200, code: null },
      { status: 503, code: 'store_unavailable' },
      { status: 200, code: null },
    ]);
    // Charged exactly for the two 200s: the 503 charged nothing, no retry charged twice.
    expect(used).toEqual({ used: 120, calls: 2 });
    expect(server.lines.some((l) => l.includes('"event":"usage_flush_failed"'))).toBe(true);
    expect(server.lines.some((l) => l.includes('"event":"usage_flush_recovered"'))).toBe(true);
    expect(server.lines.some((l) => l.includes('"event":"unhandled_error"'))).toBe(false);
  }, 30_000);
});
