/**
 * Issue 23, hostile input round two, against a real server process: invisible characters must not
 * inflate the words charged, combining marks must not carry an AI text to a human verdict, UTF-32
 * and NUL-bearing files, hostile file names, and a disconnect's refund seen by the next request.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand, startServerProcess, type ServerProcess } from '../fixtures/server-process';
import { AI_EN, AI_ES } from '../engine/texts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'fault-input-'));
const DB = join(dir, 'db.sqlite');
const ENV = { DATABASE_PATH: DB, BOOTSTRAP_KEY: '0', WORKERS: '1' };
let server: ServerProcess;
let key: string;

function createKey(plan: string): string {
  const created = runCommand(['bun', 'src/main.ts', 'keys', 'create', '--plan', plan], ROOT, ENV);
  expect(created.code).toBe(0);
  return created.out.trim().split('\n').at(-1)!;
}

beforeAll(async () => {
  key = createKey('enterprise');
  server = await startServerProcess(['bun', 'src/main.ts', 'serve'], { cwd: ROOT, env: ENV });
}, 30_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function detect(text: string, apiKey = key): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.base}/api/detect`, {
    method: 'POST',
    headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

type Line = Record<string, unknown> & { type: string };
async function batch(files: Array<[string, Uint8Array | string]>): Promise<Line[]> {
  const form = new FormData();
  for (const [name, content] of files) form.append('files[]', new File([content as BlobPart], name));
  const res = await fetch(`${server.base}/api/detect`, { method: 'POST', headers: { 'X-API-Key': key }, body: form });
  expect(res.status).toBe(200);
  return (await res.text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
}
const perFile = (lines: Line[]) => lines.filter((l) => l.type === 'result' || l.type === 'error');

describe('invisible characters', () => {
  // Before: a zero-width space between every character turned 51 charged words into 346.
  for (const [name, mark] of [
    ['zero-width space', '\u200B'],
    ['soft hyphen', '\u00AD'],
    ['tag character', '\u{E0041}'],
    ['word joiner', '\u2060'],
  ] as const) {
    it(`a ${name} between every character charges the words of the clean text`, async () => {
      const clean = await detect(AI_EN);
      const disguised = await detect([...AI_EN].join(mark));
      expect(clean.status).toBe(200);
      expect(disguised.status).toBe(200);
      expect(disguised.body.words).toBe(clean.body.words);
      expect(clean.body.words).toBe(93);
    });
  }
});

describe('combining marks', () => {
  // Before: an acute after every letter moved AI_EN from 98 (inconclusive) to 43 (likely_human).
  it('an acute after every letter keeps the score and flags obfuscation, never a human-side verdict', async () => {
    for (const text of [AI_EN, AI_ES]) {
      const clean = await detect(text);
      const marked = await detect(text.replace(/\p{L}/gu, '$&\u0301'));
      expect(marked.status).toBe(200);
      expect(Math.abs((marked.body.score as number) - (clean.body.score as number))).toBeLessThanOrEqual(2);
      expect(['human', 'likely_human']).not.toContain(marked.body.verdictKey);
      const dims = marked.body.dimensions as Array<{ id: string; detected: boolean }>;
      expect(dims.find((d) => d.id === 'obfuscation')?.detected).toBe(true);
      expect(marked.body.words).toBe(clean.body.words);
    }
  });

  it('decomposed (NFD) Spanish scores exactly as composed and is not obfuscation', async () => {
    const composed = await detect(AI_ES);
    const decomposed = await detect(AI_ES.normalize('NFD'));
    expect(decomposed.body.probability).toBe(composed.body.probability);
    const dims = decomposed.body.dimensions as Array<{ id: string; detected: boolean }>;
    expect(dims.find((d) => d.id === 'obfuscation')?.detected).toBe(false);
  });
});

/** `text` in UTF-32 with its byte-order mark. */
function utf32(text: string, littleEndian: boolean): Uint8Array {
  const cps = [0xfeff, ...[...text].map((c) => c.codePointAt(0) as number)];
  const out = new Uint8Array(cps.length * 4);
  const view = new DataView(out.buffer);
  cps.forEach((cp, i) => view.setUint32(i * 4, cp, littleEndian));
  return out;
}

describe('text files', () => {
  // Before: a UTF-32LE file was read as UTF-16 and scored with NULs between letters.
  it('reads UTF-32 LE and BE files with a BOM as the same text as UTF-8', async () => {
    const lines = perFile(
      await batch([
        ['a.txt', AI_ES],
        ['b.txt', utf32(AI_ES, true)],
        ['c.txt', utf32(AI_ES, false)],
      ]),
    );
    expect(lines.map((l) => l.type)).toEqual(['result', 'result', 'result']);
    expect(lines.map((l) => l.words)).toEqual([lines[0].words, lines[0].words, lines[0].words]);
    expect(lines.map((l) => l.probability)).toEqual([lines[0].probability, lines[0].probability, lines[0].probability]);
  });

  // Before: only the first 8 KB were looked at; NULs after them were dropped and the file scored.
  it('refuses a text file with a NUL anywhere as unsupported_format', async () => {
    const filler = `${AI_EN}\n`.repeat(20); // ~14 KB
    const lines = perFile(
      await batch([
        ['late-nul.txt', `${filler}\u0000${AI_EN}`],
        ['bom-nul.txt', `\uFEFF${AI_EN}\u0000`],
        ['late-nul.md', `# Title\n\n${filler}\u0000`],
        ['clean.txt', filler],
      ]),
    );
    expect(lines.map((l) => [l.type, l.code ?? null])).toEqual([
      ['error', 'unsupported_format'],
      ['error', 'unsupported_format'],
      ['error', 'unsupported_format'],
      ['result', null],
    ]);
  });
});

describe('file names', () => {
  // Before: a 100 KB name was echoed whole, and control and bidi characters were echoed.
  it('echoes names capped at 255 characters, keeping the extension, without control or bidi characters', async () => {
    const long = `${'n'.repeat(100_000)}.md`;
    const sneaky = 'report\u202Etxt.exe\u0007\u001b[2J\u2066x\u2069\u200F.txt';
    const lines = await batch([
      [long, `# Heading\n\n${AI_EN}`],
      [sneaky, AI_EN],
    ]);
    for (const l of lines.filter((x) => 'fileName' in x)) expect((l.fileName as string).length).toBeLessThanOrEqual(255);
    const [first, second] = perFile(lines);
    expect(first.type).toBe('result');
    expect(first.format).toBe('md');
    expect(first.fileName).toBe(`${'n'.repeat(255 - 4)}….md`);
    expect(second.fileName).toBe('reporttxt.exe[2Jx.txt');
  });
});

/**
 * Sends a detection over raw TCP with a second request pipelined behind it: Bun drops such a
 * connection (docs/faults.md, pipelining), so the detection's client is gone while it is charged.
 */
async function sendPipelined(port: number, apiKey: string, text: string) {
  const body = JSON.stringify({ text });
  const socket = await Bun.connect({ hostname: '127.0.0.1', port, socket: { data() {} } });
  socket.write(
    `POST /api/detect HTTP/1.1\r\nHost: x\r\nX-API-Key: ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}` +
      'GET /health HTTP/1.1\r\nHost: x\r\n\r\n',
  );
  return socket;
}

describe('a disconnect refund', () => {
  // Before: the refund of a detection whose client hung up landed a moment after the next request
  // of the same key, which was refused with 429 although the words were owed back.
  it('is visible before the next request on that key is judged', async () => {
    const freeKey = createKey('free');
    const prefix = freeKey.slice(0, 10);
    // A long first text: its client has hung up by the time its words are counted and charged.
    const long = `${AI_EN}\n\n`.repeat(100);
    const words = (await detect(long, key)).body.words as number;
    expect(words).toBe(9300);
    expect((await detect(AI_EN, freeKey)).status).toBe(200);
    const db = new Database(DB);
    const { id } = db.query('SELECT id FROM api_keys WHERE prefix LIKE ?').get(`${prefix}%`) as { id: number };
    const closedLines = () => server.lines.filter((l) => l.includes('"code":"client_closed"')).length;
    const rounds: string[] = [];
    for (let round = 0; round < 20; round++) {
      // Room for the long text, and for the short one only if the long one is given back.
      db.run('UPDATE monthly_usage SET words_used = ? WHERE key_id = ?', [10_000 - words, id]);
      const closedBefore = closedLines();
      const first = await sendPipelined(server.port, freeKey, long);
      // The next request of the key, sent at once on its own connection.
      const next = await detect(AI_EN, freeKey);
      first.end();
      await Bun.sleep(100); // the first request's log line, if it finished after the second
      const refunded = closedLines() > closedBefore;
      // A first request answered before it saw the hang-up is charged (the second is then rightly
      // refused); one that was refunded must leave room for the second.
      rounds.push(`${refunded ? 'refunded' : 'charged'} ${next.status}`);
    }
    db.close();
    console.log(rounds.join(', '));
    expect(rounds.filter((r) => r === 'refunded 429')).toEqual([]);
    expect(rounds.filter((r) => r.startsWith('refunded')).length).toBeGreaterThan(0);
  }, 30_000);
});
