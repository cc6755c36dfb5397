/**
 * Issue 16 items 5/6: a client that hangs up mid-body is logged as 499 client_closed and leaves no
 * usage event (nothing was served or charged). Before: logged with a stack trace and stored in
 * usage_events as 500 internal_error. Real server process, raw TCP client.
 */
import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand, startServerProcess, type ServerProcess } from '../fixtures/server-process';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'fault-abort-'));
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Sends `head` and the start of a body that promised more, then closes the connection. */
async function hangUp(port: number, head: string, partialBody: string): Promise<void> {
  const socket = await Bun.connect({ hostname: '127.0.0.1', port, socket: { data() {} } });
  socket.write(`${head}\r\n\r\n${partialBody}`);
  await Bun.sleep(100); // the server is reading the body
  socket.end();
}

describe('a client hanging up mid-request', () => {
  it('is logged as 499 client_closed, never as a 500, and leaves no usage event', async () => {
    const path = join(dir, 'abort.sqlite');
    const env = { DATABASE_PATH: path, BOOTSTRAP_KEY: '0', WORKERS: '1' };
    const created = runCommand(['bun', 'src/main.ts', 'keys', 'create', '--plan', 'free'], ROOT, env);
    const key = created.out.trim().split('\n').at(-1)!;
    server = await startServerProcess(['bun', 'src/main.ts', 'serve'], { cwd: ROOT, env });
    const json = `POST /api/detect HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 5000`;
    await hangUp(server.port, json, '{"text":"The committee met on Monday');
    const multipart = `POST /api/detect HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: 90000`;
    await hangUp(
      server.port,
      multipart,
      '--XyZ\r\nContent-Disposition: form-data; name="files[]"; filename="a.txt"\r\n\r\nThe committee met',
    );
    await Bun.sleep(400); // log lines and any usage event are written
    const requests = server.lines.filter((l) => l.includes('"event":"request"')).map((l) => JSON.parse(l));
    expect(requests.map((r) => [r.status, r.code])).toEqual([
      [499, 'client_closed'],
      [499, 'client_closed'],
    ]);
    expect(server.lines.some((l) => l.includes('"event":"unhandled_error"') || l.includes('"status":500'))).toBe(false);
    const db = new Database(path, { readonly: true });
    const events = db.query('SELECT count(*) AS n FROM usage_events').get();
    const used = db.query('SELECT count(*) AS n FROM monthly_usage').get();
    db.close();
    expect(events).toEqual({ n: 0 });
    expect(used).toEqual({ n: 0 });
  }, 30_000);
});
