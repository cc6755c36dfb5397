/**
 * Issue 29 items 3 and 6, against a real server process over raw TCP: a batch part named
 * `filename=""` (what a browser sends for an empty file input) or a lone `"` is scored under a
 * fallback name, never a 500; and a key that cannot pay for a batch is refused before its body is
 * read, with an Idempotency-Key as without one (before: keyed requests read and parsed up to 50 MB
 * first, ~590 MB for 4 parallel 45 MB batches).
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLANS } from '../../src/plans';
import { periodOf } from '../../src/modules/quota';
import { PROSE } from '../http/helpers';
import { runCommand, startServerProcess, type ServerProcess } from '../fixtures/server-process';
import { exchange } from './fixtures/raw-http';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'fault-round3-'));
const DB = join(dir, 'db.sqlite');
const ENV = { DATABASE_PATH: DB, BOOTSTRAP_KEY: '0', WORKERS: '1' };
let server: ServerProcess;
let key = '';
let poorKey = '';
let poorKeyId = 0;

function createKey(plan: string): { key: string; id: number } {
  const created = runCommand(['bun', 'src/main.ts', 'keys', 'create', '--plan', plan], ROOT, ENV);
  expect(created.code).toBe(0);
  return { key: created.out.trim().split('\n').at(-1)!, id: Number(/#(\d+)/.exec(created.out)![1]) };
}

beforeAll(async () => {
  key = createKey('enterprise').key;
  ({ key: poorKey, id: poorKeyId } = createKey('essential'));
  // 10 words left this month: fewer than any file needs (MIN_WORDS).
  const db = new Database(DB);
  db.query('INSERT INTO monthly_usage (key_id, period, words_used, calls) VALUES (?, ?, ?, 1)').run(
    poorKeyId,
    periodOf(Date.now()),
    PLANS.essential.wordsPerMonth - 10,
  );
  db.close();
  server = await startServerProcess(['bun', 'src/main.ts', 'serve'], { cwd: ROOT, env: ENV });
}, 30_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const BOUNDARY = 'round3Boundary';

/** A multipart request head for `length` bytes of body. */
function head(apiKey: string, length: number, extra = ''): string {
  return `POST /v1/detect HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${apiKey}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${length}\r\n${extra}\r\n`;
}

describe('batch parts with an empty or broken file name', () => {
  for (const [name, disposition] of [
    ['filename=""', 'filename=""'],
    ['a lone "', 'filename="'],
  ] as const) {
    for (const keyed of [false, true]) {
      it(`scores a part with ${name} under a fallback name${keyed ? ' (with an Idempotency-Key)' : ''}`, async () => {
        const body = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files[]"; ${disposition}\r\nContent-Type: text/plain\r\n\r\n${PROSE}\r\n--${BOUNDARY}--\r\n`;
        const extra = keyed ? `Idempotency-Key: round3-${name.length}\r\n` : '';
        const { responses } = await exchange(server.port, [head(key, Buffer.byteLength(body), extra) + body]);
        expect(responses[0]?.status).toBe(200);
        const lines = responses[0].body
          .toString()
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        expect(lines.map((l) => [l.type, l.fileName ?? null])).toEqual([
          ['progress', 'file-1'],
          ['result', 'file-1'],
          ['complete', null],
        ]);
      });
    }
  }
  it('logged no 500', () => {
    expect(server.lines.some((l) => l.includes('"status":500') || l.includes('"event":"unhandled_error"'))).toBe(false);
  });
});

describe('a key that cannot pay for a batch', () => {
  // 45 MB declared, 64 KB sent: an answer can only come before the body is read.
  const declared = 45 * 1024 * 1024;
  const start = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files[]"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n${'word '.repeat(13_000)}`;
  for (const keyed of [false, true]) {
    it(`is refused with 429 before its body is read${keyed ? ', with an Idempotency-Key too' : ''}`, async () => {
      const extra = keyed ? 'Idempotency-Key: big-batch-1\r\n' : '';
      const answers = await Promise.all(
        [1, 2, 3, 4].map(() => exchange(server.port, [head(poorKey, declared, extra) + start], { timeoutMs: 2000 })),
      );
      for (const { responses } of answers) {
        expect(responses[0]?.status).toBe(429);
        expect(JSON.parse(responses[0].body.toString()).error.code).toBe('quota_exceeded');
      }
    });
  }
});
