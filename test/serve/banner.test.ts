/**
 * Issue 15 item 6: the start banner and the first start's key name the real address, the
 * playground and the keys command of the way the server was started (the compiled binary's is
 * checked in test/binary).
 */
import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keysCommandLine, serviceUrl, TRY_TEXT } from '../../src/cli/console';
import { bootstrapKeyOf, startServerProcess } from '../fixtures/server-process';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'detector-banner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('start banner', () => {
  it('shows the real port, the playground and `bun run keys`, and the first key with a curl to the real address', async () => {
    const server = await startServerProcess(['bun', 'src/main.ts', 'serve'], {
      cwd: ROOT,
      env: { DATABASE_PATH: join(dir, 'a.sqlite'), WORKERS: '1' },
    });
    const base = `http://127.0.0.1:${server.port}`;
    const key = await bootstrapKeyOf(server);
    const stderr = server.errLines.join('\n');
    expect(stderr).toContain(`Try:  curl -s ${base}/v1/detect -H "X-API-Key: ${key}" -H "Content-Type: application/json" -d '`);
    // Issue 28: the Try line's request is one the server accepts (it sent "...", refused as too short).
    const body = /Try: {2}curl .* -d '(.*)'$/m.exec(stderr)![1];
    expect(JSON.parse(body).text).toBe(TRY_TEXT);
    const tried = await fetch(`${base}/v1/detect`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body,
    });
    expect(tried.status).toBe(200);
    expect(((await tried.json()) as { words: number }).words).toBe(30);
    expect(stderr).toContain(`Or open the playground: ${base}/`);
    expect(stderr).toContain('manage keys with `bun run keys`');
    expect(stderr).not.toContain('localhost:3000');
    // stdout carries the JSON log alone: the secret never reaches a log shipper.
    expect(server.lines.join('\n')).not.toContain(key);
    for (const line of server.lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(await server.stop()).toBe(0);
    const stderrLines = (await server.stderr).split('\n');
    // The first start's key comes first, then the banner.
    const banner = stderrLines.slice(stderrLines.findIndex((l) => l.startsWith('AI Text Detector')));
    expect(banner.slice(0, 4)).toEqual([
      expect.stringMatching(new RegExp(`^AI Text Detector \\d+\\.\\d+\\.\\d+ listening on ${base}: 1 process, sqlite `)),
      `  Playground:  ${base}/`,
      `  API docs:    ${base}/swagger`,
      '  Keys:        bun run keys create --plan free   (list | revoke | usage)',
    ]);
  }, 30_000);

  it('names localhost when bound to every interface', async () => {
    const server = await startServerProcess(['bun', 'src/main.ts', 'serve'], {
      cwd: ROOT,
      env: { DATABASE_PATH: join(dir, 'b.sqlite'), WORKERS: '1', HOST: '0.0.0.0', BOOTSTRAP_KEY: '0' },
    });
    expect(await server.stop()).toBe(0);
    expect(await server.stderr).toContain(`listening on http://localhost:${server.port} (all interfaces): 1 process`);
  }, 30_000);

  it('writes IPv6 hosts in brackets and the binary as it can be typed', () => {
    expect(serviceUrl('::1', 8080)).toBe('http://[::1]:8080');
    expect(serviceUrl('::', 8080)).toBe('http://localhost:8080');
    expect(serviceUrl('10.0.0.5', 80)).toBe('http://10.0.0.5:80');
    expect(keysCommandLine(false)).toBe('bun run keys');
    expect(keysCommandLine(true, '/srv/app/ai-detector', '/srv/app')).toBe('./ai-detector keys');
    expect(keysCommandLine(true, '/srv/app/bin/ai-detector', '/srv/app')).toBe('./bin/ai-detector keys');
    expect(keysCommandLine(true, '/usr/local/bin/ai-detector', '/home/me')).toBe('/usr/local/bin/ai-detector keys');
  });
});
