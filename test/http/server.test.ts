import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { PROSE } from './helpers';
import { modelVersion } from '../../src/model-version';
import { bootstrapKeyOf, startServerProcess, type ServerProcess } from '../fixtures/server-process';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'detector-server-'));
const started: Subprocess[] = [];
afterAll(() => {
  for (const proc of started) if (proc.exitCode === null) proc.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `bun src/main.ts serve` on a free port (PORT=0) and waits for its "listening" log line. */
async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(['bun', 'src/main.ts', 'serve'], { cwd: ROOT, env });
  started.push(server.proc);
  return server;
}

describe('real server over HTTP', () => {
  it('prints a bootstrap key once, serves detections over TCP and shuts down gracefully on SIGTERM', async () => {
    const databasePath = join(dir, 'nested', 'server.sqlite');
    const first = await startServer({ DATABASE_PATH: databasePath });
    const key = await bootstrapKeyOf(first);
    // stdout is the JSON log alone: one JSON object per line, never the secret.
    for (const line of first.lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(first.lines.join('\n')).not.toContain(key);

    const health = await fetch(`${first.base}/health`);
    expect(await health.json()).toEqual({
      status: 'ok',
      store: 'up',
      scoring: 'up',
      version: (await Bun.file(join(ROOT, 'package.json')).json()).version,
      modelVersion: modelVersion(),
    });

    const detect = await fetch(`${first.base}/api/detect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key!, 'accept-language': 'es-419' },
      body: JSON.stringify({ text: PROSE }),
    });
    expect(detect.status).toBe(200);
    expect(detect.headers.get('content-language')).toBe('es');
    expect(detect.headers.get('x-ratelimit-remaining')).toBe(String(10_000 - 60));
    const body = await detect.json();
    expect(body).toMatchObject({ success: true, words: 60, rate_limit: 10_000, rate_remaining: 9_940 });

    const tooBig = await fetch(`${first.base}/api/detect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key! },
      body: JSON.stringify({ text: 'word '.repeat(300_000) }),
    });
    expect(tooBig.status).toBe(413);
    expect((await tooBig.json()).error.code).toBe('payload_too_large');

    const unauthorized = await fetch(`${first.base}/api/detect`, { method: 'POST', body: '{' });
    expect(unauthorized.status).toBe(401);

    // A request in flight when SIGTERM arrives still completes: its body is still uploading.
    const json = JSON.stringify({ text: PROSE });
    let push!: ReadableStreamDefaultController<Uint8Array>;
    const upload = new ReadableStream<Uint8Array>({ start: (c) => void (push = c) });
    push.enqueue(new TextEncoder().encode(json.slice(0, 40)));
    const inFlight = fetch(`${first.base}/api/detect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key! },
      body: upload,
    });
    await first.waitFor(/"event":"request".*"status":401/); // the server has handled everything sent before
    await Bun.sleep(150);
    first.proc.kill('SIGTERM');
    await first.waitFor(/"event":"shutting_down"/);
    push.enqueue(new TextEncoder().encode(json.slice(40)));
    push.close();
    const finished = await inFlight;
    expect(finished.status).toBe(200);
    expect((await finished.json()).words).toBe(60);
    expect(await first.proc.exited).toBe(0);
    await first.waitFor(/"event":"stopped"/);

    // Second start on the same database: keys exist, so nothing is printed.
    const second = await startServer({ DATABASE_PATH: databasePath });
    expect([...second.lines, ...second.errLines].some((l) => /^\s*ak_/.test(l))).toBe(false);
    const again = await fetch(`${second.base}/api/detect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key! },
      body: JSON.stringify({ text: PROSE }),
    });
    expect((await again.json()).rate_remaining).toBe(10_000 - 180);
    second.proc.kill('SIGINT');
    expect(await second.proc.exited).toBe(0);
  });

  it('does not create a key with BOOTSTRAP_KEY=0, and refuses bad configuration', async () => {
    const quiet = await startServer({ DATABASE_PATH: join(dir, 'quiet.sqlite'), BOOTSTRAP_KEY: '0' });
    expect([...quiet.lines, ...quiet.errLines].some((l) => /ak_/.test(l))).toBe(false);
    quiet.proc.kill('SIGTERM');
    expect(await quiet.proc.exited).toBe(0);

    const bad = Bun.spawnSync(['bun', 'src/main.ts', 'serve'], {
      cwd: ROOT,
      env: { ...process.env, PORT: 'eighty', DATABASE_PATH: join(dir, 'bad.sqlite') },
    });
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr.toString()).toContain('Configuration error: PORT must be an integer');

    const unbindable = Bun.spawnSync(['bun', 'src/main.ts', 'serve'], {
      cwd: ROOT,
      env: { ...process.env, HOST: '203.0.113.5', PORT: '0', BOOTSTRAP_KEY: '0', DATABASE_PATH: join(dir, 'unbindable.sqlite') },
    });
    expect(unbindable.exitCode).toBe(1);
    expect(unbindable.stderr.toString()).toContain('Cannot listen on 203.0.113.5:0');
  });

  it('answers --version and --help', () => {
    const version = Bun.spawnSync(['bun', 'src/main.ts', '--version'], { cwd: ROOT });
    expect(version.stdout.toString().trim()).toMatch(/^\d+\.\d+\.\d+/);
    const help = Bun.spawnSync(['bun', 'src/main.ts', '--help'], { cwd: ROOT });
    expect(help.stdout.toString()).toContain('keys <command>');
  });
});
