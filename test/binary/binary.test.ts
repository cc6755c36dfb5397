/**
 * The single binary (issue 6): built once with scripts/build.ts, copied alone into an empty
 * folder, then every subcommand is run from there and the server answers over TCP.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBinary } from '../../scripts/build';
import { humanTexts } from '../../scripts/lib/human-texts';
import { makeDocx, makePdf } from '../fixtures/make';
import { POSTGRES_MISSING, startPostgres, warnIfMissing } from '../fixtures/postgres';
import { modelVersion } from '../../src/model-version';
import { runCommand, startServerProcess, type ServerProcess } from '../fixtures/server-process';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** 60 words of English prose (the same as test/http/helpers' PROSE, which would load the engine here). */
const PROSE =
  'In today’s fast-paced world, it is important to note that technology plays a crucial role in our daily lives. ' +
  'Moreover, it offers numerous benefits that enhance productivity and foster innovation across many industries. ' +
  'Furthermore, by leveraging these tools, organizations can streamline their operations and unlock new opportunities. ' +
  'Ultimately, embracing this transformation is essential for long-term success in a competitive landscape.';
/** A cold `--bytecode` build takes ~5 s on 2 busy cores; leave room. */
const BUILD_TIMEOUT_MS = 90_000;
const buildDir = mkdtempSync(join(tmpdir(), 'ai-detector-build-'));
const runDir = mkdtempSync(join(tmpdir(), 'ai-detector-run-'));
const binary = join(runDir, 'ai-detector');
const env = { DATABASE_PATH: join(runDir, 'db', 'detector.sqlite') };
const version: string = (await Bun.file(join(import.meta.dir, '..', '..', 'package.json')).json()).version;
let server: ServerProcess | undefined;
let key = '';

beforeAll(async () => {
  const { outfile } = await buildBinary({ outfile: join(buildDir, 'ai-detector') });
  // Nothing beside it: the binary alone in an empty folder (the database folder comes later).
  copyFileSync(outfile, binary);
  rmSync(buildDir, { recursive: true, force: true });
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await server?.stop();
  rmSync(buildDir, { recursive: true, force: true });
  rmSync(runDir, { recursive: true, force: true });
});

/** The text on two PDF pages, 10 words a line (the fixture writer does not wrap; WinAnsi has no ’). */
function pdfPages(text: string): string[] {
  const words = text.replace(/’/g, "'").split(' ');
  const lines = Array.from({ length: Math.ceil(words.length / 10) }, (_, i) => words.slice(i * 10, i * 10 + 10).join(' '));
  const half = Math.ceil(lines.length / 2);
  return [lines.slice(0, half).join('\n'), lines.slice(half).join('\n')];
}

function run(args: string[], stdin?: string) {
  return runCommand([binary, ...args], runDir, env, stdin);
}

describe('ai-detector binary', () => {
  it('is alone in its folder and answers --version and --help', () => {
    expect(readdirSync(runDir)).toEqual(['ai-detector']);
    expect(run(['--version'])).toMatchObject({ code: 0, out: `${version}\n` });
    const help = run(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['serve', 'keys', 'detect', '--version']) expect(help.out).toContain(command);
  });

  it('creates, lists, revokes and reports usage of keys with the DATABASE_PATH it is given', () => {
    const created = run(['keys', 'create', '--plan', 'enterprise', '--name', 'binary test']);
    expect(created.code).toBe(0);
    key = created.out.trim().split('\n').at(-1)!;
    expect(key).toMatch(/^ak_[0-9A-Za-z]{40}$/);
    const list = run(['keys', 'list']);
    expect(list.code).toBe(0);
    expect(list.out).toContain('binary test');
    expect(list.out).not.toContain(key);
    expect(run(['keys', 'usage', key.slice(0, 11)]).code).toBe(0);
    const spare = run(['keys', 'create', '--plan', 'free', '--name', 'spare']).out.trim().split('\n').at(-1)!;
    expect(run(['keys', 'revoke', spare.slice(0, 11)]).code).toBe(0);
    expect(run(['keys', 'list']).out).toMatch(/spare.*revoked/);
  });

  it('scores files and JSON lines offline with detect', () => {
    const file = join(runDir, 'essay.txt');
    writeFileSync(file, PROSE);
    const files = run(['detect', file]);
    expect(files.code).toBe(0);
    expect(files.out).toMatch(/essay\.txt\t\d{1,3}\t[a-z_]+\t/);
    rmSync(file);
    const jsonl = run(['detect', '--jsonl'], `${JSON.stringify({ text: PROSE })}\n${JSON.stringify({ text: PROSE })}\n`);
    expect(jsonl.code).toBe(0);
    const lines = jsonl.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ score: expect.any(Number), verdict: expect.any(String), ai: expect.any(Boolean), lang: 'en' });
  });

  it('makes a calibration profile offline, reading the reference writers embedded in it (model/reference.bin)', () => {
    // A profile build spreads the detector's facts, which decodes the embedded reference set: a binary
    // without it would fail here (ENOENT), not answer.
    const out = join(runDir, 'profile.json');
    const jsonl = humanTexts(60, 3)
      .map((text) => JSON.stringify({ text }))
      .join('\n');
    const made = run(['calibrate', '--out', out, '--name', 'binary'], jsonl);
    expect([made.code, made.err]).toEqual([0, '']);
    expect(JSON.parse(made.out)).toMatchObject({ name: 'binary', inputs: { usable: 60 } });
    rmSync(out);
  });

  it('serves /health, a single detection and a PDF + DOCX batch from an empty folder', async () => {
    mkdirSync(join(runDir, 'www'));
    // No subcommand: `serve` is the default. The cwd is an empty folder: nothing may be read from
    // the source tree or from beside the binary.
    server = await startServerProcess([binary], { cwd: join(runDir, 'www'), env });
    const health = await fetch(`${server.base}/health`);
    expect(await health.json()).toEqual({ status: 'ok', store: 'up', scoring: 'up', version, modelVersion: modelVersion() });

    const headers = { 'x-api-key': key };
    const single = await fetch(`${server.base}/api/detect`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ text: PROSE }),
    });
    expect(single.status).toBe(200);
    expect(await single.json()).toMatchObject({ success: true, words: 60, rate_limit: 15_000_000 });

    const form = new FormData();
    form.append('files[]', new File([makePdf(pdfPages(PROSE)) as Uint8Array<ArrayBuffer>], 'essay.pdf'));
    form.append('files[]', new File([(await makeDocx([PROSE])) as Uint8Array<ArrayBuffer>], 'essay.docx'));
    const batch = await fetch(`${server.base}/api/detect`, { method: 'POST', headers, body: form });
    expect(batch.status).toBe(200);
    expect(batch.headers.get('content-type')).toContain('ndjson');
    const lines = (await batch.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const results = lines.filter((l) => l.type === 'result');
    expect(results.map((r) => [r.fileName, r.format])).toEqual([
      ['essay.pdf', 'pdf'],
      ['essay.docx', 'docx'],
    ]);
    expect(results.map((r) => r.words)).toEqual([60, 60]);
    expect(results.every((r) => r.words >= 55 && Number.isInteger(r.score))).toBe(true);
    expect(lines.at(-1)).toEqual({ type: 'complete', total: 2 });

    const swagger = await fetch(`${server.base}/swagger`);
    expect(swagger.status).toBe(200);
    expect((await fetch(`${server.base}/`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
    expect(await server.stderr).not.toContain('rror');
  });

  it('starts its worker processes from the binary alone (WORKERS=2)', async () => {
    server = await startServerProcess([binary, 'serve'], { cwd: join(runDir, 'www'), env: { ...env, WORKERS: '2' } });
    await server.waitFor(/"event":"worker_listening"/);
    const single = await fetch(`${server.base}/api/detect`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ text: PROSE }),
    });
    expect(single.status).toBe(200);
    // Both processes report to one scrape over the binary's own IPC channel.
    const metrics = await (await fetch(`${server.base}/metrics`)).text();
    expect(metrics).toContain('\nai_detector_processes 2\n');
    expect(metrics).toContain('ai_detector_http_requests_total{route="/api/detect",method="POST",status="200"} 1\n');
    expect(await server.stop()).toBe(0);
    expect(server.lines.filter((l) => l.includes('"event":"stopped"')).length).toBe(2);
    const stderr = await server.stderr;
    expect(stderr).not.toContain('rror');
    // The banner names the binary (run from another folder: its full path), not `bun run keys`.
    expect(stderr).toContain(`listening on http://127.0.0.1:${server.port}: 2 processes`);
    expect(stderr).toContain(`Keys:        ${binary} keys create --plan free`);
    expect(stderr).not.toContain('bun run');
  });

  it.if(!POSTGRES_MISSING)('migrates a PostgreSQL database at start and serves from it (DATABASE_URL, WORKERS=2)', async () => {
    const cluster = startPostgres();
    try {
      const pgEnv = { DATABASE_URL: await cluster.createDatabase('binary'), WORKERS: '2' };
      const created = runCommand([binary, 'keys', 'create', '--plan', 'free'], runDir, pgEnv);
      expect(created.code).toBe(0);
      const pgKey = created.out.trim().split('\n').at(-1)!;
      server = await startServerProcess([binary], { cwd: join(runDir, 'www'), env: pgEnv });
      await server.waitFor(/"event":"worker_listening"/);
      expect(await (await fetch(`${server.base}/health`)).json()).toEqual({
        status: 'ok',
        store: 'up',
        scoring: 'up',
        version,
        modelVersion: modelVersion(),
      });
      for (let i = 0; i < 4; i++) {
        const single = await fetch(`${server.base}/api/detect`, {
          method: 'POST',
          headers: { 'x-api-key': pgKey, 'content-type': 'application/json' },
          body: JSON.stringify({ text: PROSE }),
        });
        expect(await single.json()).toMatchObject({ success: true, rate_remaining: 10_000 - 60 * (i + 1) });
      }
      expect(runCommand([binary, 'keys', 'usage', pgKey.slice(0, 11)], runDir, pgEnv).out).toContain('Words this month: 240 of 10000');
      expect(await server.stop()).toBe(0);
      expect(await server.stderr).not.toContain('rror');
    } finally {
      cluster.destroy();
    }
  });
});

warnIfMissing('test/binary/binary.test.ts');
