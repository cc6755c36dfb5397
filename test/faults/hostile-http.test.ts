/**
 * Issue 16 item 6: a hostile corpus at the HTTP level against a real server process, over raw TCP.
 * Malformed and deeply nested JSON, wrong/duplicated/huge headers, invalid UTF-8, Unicode floods,
 * huge numbers of words and sentences, Content-Length vs chunked framing, truncated and pipelined
 * requests, multipart framing errors, slow and abandoned bodies: every request is generated here
 * (hostile file contents are in hostile-files*.test.ts). For each: no 5xx, no hang, and every 4xx
 * the app sends is `{success:false,error:{code,message}}` with a documented code and its status.
 * Framing that Bun's HTTP parser refuses before any app code runs gets Bun's bare 400/413/431/505
 * and a closed connection (docs/faults.md). After the corpus: the server still serves, logged no
 * 5xx, and charged exactly the words it delivered (pipelined requests Bun drops are refunded).
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERROR_STATUS, SENT_ERROR_CODES } from '../../src/http/errors';
import { compileSchema } from '../../src/http/schema';
import { BATCH_LINE_SCHEMAS } from '../../src/modules/batch/model';
import { runCommand, startServerProcess, type ServerProcess } from '../fixtures/server-process';
import { detectText, PROSE, type HostileCase } from './fixtures/hostile-case';
import { framingCases } from './fixtures/hostile-framing';
import { jsonCases } from './fixtures/hostile-json';
import { multipartCases } from './fixtures/hostile-multipart';
import { exchange, type Exchange, type RawResponse } from './fixtures/raw-http';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'fault-hostile-'));
const databasePath = join(dir, 'hostile.sqlite');
let server: ServerProcess;
let key: string;
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});
beforeAll(async () => {
  const env = { DATABASE_PATH: databasePath, BOOTSTRAP_KEY: '0', WORKERS: '1' };
  const created = runCommand(['bun', 'src/main.ts', 'keys', 'create', '--plan', 'enterprise'], ROOT, env);
  key = created.out.trim().split('\n').at(-1)!;
  server = await startServerProcess(['bun', 'src/main.ts', 'serve'], { cwd: ROOT, env });
});

/** Requests in flight at once (the server has one process; 2 cores are shared with the clients). */
const CONCURRENCY = 6;
/** Statuses Bun's own parser sends, with no body, for framing it refuses. */
const PARSER_STATUSES = [400, 413, 431, 505];

/** Words the client was actually given (single-mode `words`, batch `result` lines). */
function deliveredWords(response: RawResponse): number {
  if (response.status !== 200 || !response.complete) return 0;
  const type = response.headers.get('content-type') ?? '';
  const text = response.body.toString('utf8');
  if (type.includes('ndjson')) {
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .reduce((sum, line) => sum + (line.type === 'result' ? line.words : 0), 0);
  }
  if (type.includes('json') && text !== '') return (JSON.parse(text) as { words?: number }).words ?? 0;
  return 0;
}

const lineChecks = Object.fromEntries(Object.entries(BATCH_LINE_SCHEMAS).map(([type, schema]) => [type, compileSchema(schema)]));
/** Per-file codes that would mean the server failed (the batch equivalent of a 5xx). */
const SERVER_FILE_ERRORS = ['extract_failed', 'extract_timeout'];

/** Problems with a batch stream: a line outside the documented line schemas, or a server-side file error. */
function ndjsonProblems(text: string): string[] {
  const problems: string[] = [];
  for (const raw of text.split('\n').filter(Boolean)) {
    const line = JSON.parse(raw) as { type: string; code?: string };
    if (!lineChecks[line.type]?.Check(line)) problems.push(`undocumented NDJSON line ${raw.slice(0, 120)}`);
    if (line.code && SERVER_FILE_ERRORS.includes(line.code)) problems.push(`file error ${line.code}`);
  }
  return problems;
}

/** Problems with one app answer: a 5xx, a 4xx not in the documented shape, a batch line outside its schema. */
function appAnswerProblems(response: RawResponse): string[] {
  if (response.status >= 500) return [`${response.status} from the app`];
  if ((response.headers.get('content-type') ?? '').includes('ndjson')) return ndjsonProblems(response.body.toString('utf8'));
  if (response.status < 400) return [];
  let body: { success?: unknown; error?: { code?: unknown; message?: unknown } };
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    return [`${response.status} without a JSON body`];
  }
  const code = body.error?.code as keyof typeof ERROR_STATUS;
  if (body.success !== false || typeof body.error?.message !== 'string') return [`${response.status} not in the error shape`];
  if (!SENT_ERROR_CODES.includes(code)) return [`undocumented code ${String(code)}`];
  if (ERROR_STATUS[code] !== response.status) return [`${code} sent with ${response.status}`];
  return [];
}

/** A response from Bun's HTTP parser (a refusal of the framing): one of its statuses, no JSON, no body. */
function fromParser(response: RawResponse): boolean {
  return (
    PARSER_STATUSES.includes(response.status) &&
    response.body.length === 0 &&
    !(response.headers.get('content-type') ?? '').includes('json')
  );
}

/** What went wrong with one case (empty when the server behaved). */
function problemsOf(c: HostileCase, result: Exchange): string[] {
  const problems: string[] = [];
  if (result.ended === 'timeout') problems.push(`hung (${Math.round(result.ms)} ms)`);
  // The answers the app owes come first; bytes left after them may be refused by the parser.
  const owed = c.expect === 'answer' ? (c.responses ?? 1) : 0;
  const answers = result.responses.slice(0, owed).filter((r) => r.complete);
  if (answers.length < owed) problems.push(`${answers.length} complete answers of ${owed}, ended ${result.ended}`);
  if (c.status !== undefined && answers[0]?.status !== c.status) problems.push(`status ${answers[0]?.status}, want ${c.status}`);
  if (c.code !== undefined) {
    const code = answers[0] && JSON.parse(answers[0].body.toString('utf8') || '{}').error?.code;
    if (code !== c.code) problems.push(`code ${code}, want ${c.code}`);
  }
  for (const response of answers) problems.push(...appAnswerProblems(response));
  for (const response of result.responses.slice(owed)) {
    if (fromParser(response)) continue;
    problems.push(...appAnswerProblems(response));
    if (c.expect === 'reject' && response.status < 400) problems.push(`accepted (${response.status})`);
  }
  if (c.expect === 'reject' && result.ended !== 'end') problems.push(`connection ${result.ended} after the refusal`);
  return problems;
}

describe('a hostile corpus of HTTP requests', () => {
  it('gets no 5xx, no hang, and the documented error shape for every 4xx', async () => {
    const ctx = { key };
    const corpus = [...jsonCases(ctx), ...framingCases(ctx), ...multipartCases(ctx)];
    expect(corpus.length).toBeGreaterThanOrEqual(150);
    expect(new Set(corpus.map((c) => c.name)).size).toBe(corpus.length);

    const failures: string[] = [];
    let delivered = 0;
    const queue = [...corpus];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let c = queue.shift(); c; c = queue.shift()) {
          const result = await exchange(server.port, c.steps, {
            timeoutMs: c.timeoutMs ?? 10_000,
            stopAfter: c.expect === 'answer' ? (c.responses ?? 1) : 0,
            head: c.head,
          });
          const problems = problemsOf(c, result);
          if (problems.length > 0) failures.push(`${c.name}: ${problems.join('; ')}`);
          delivered += result.responses.reduce((sum, r) => sum + deliveredWords(r), 0);
        }
      }),
    );
    const ms = performance.now() - t0;
    expect(failures).toEqual([]);
    console.log(`hostile corpus: ${corpus.length} requests in ${Math.round(ms)} ms`);

    // Still serving, and nothing logged as a server error.
    expect((await fetch(`${server.base}/health`)).status).toBe(200);
    await Bun.sleep(300); // the last log lines and usage events
    const requests = server.lines.filter((l) => l.includes('"event":"request"')).map((l) => JSON.parse(l) as { status: number });
    expect(requests.filter((r) => r.status >= 500 && r.status !== 503)).toEqual([]);
    expect(server.lines.filter((l) => l.includes('"event":"unhandled_error"'))).toEqual([]);

    // Charged = delivered: the pipelined detections Bun dropped were refunded. The one exception a
    // client can cause is a reset right after a whole request: the answer may have been written.
    const db = new Database(databasePath, { readonly: true });
    const { used } = db.query('SELECT COALESCE(SUM(words_used), 0) AS used FROM monthly_usage').get() as { used: number };
    db.close();
    expect(used).toBeGreaterThanOrEqual(delivered);
    expect(used - delivered).toBeLessThanOrEqual(60);
  }, 120_000);

  // Bun closes a connection that pipelines a request behind one still being answered, without
  // writing either answer (oven-sh/bun#33664). Before: both detections were charged (120 words).
  it('does not charge detections whose answers Bun drops because another request was pipelined behind them', async () => {
    const db = new Database(databasePath, { readonly: true });
    const usedWords = () => (db.query('SELECT COALESCE(SUM(words_used), 0) AS used FROM monthly_usage').get() as { used: number }).used;
    const before = usedWords();
    const logged = server.lines.length;
    const twoInOneWrite = Buffer.concat([detectText({ key }, PROSE), detectText({ key }, PROSE)]);
    const result = await exchange(server.port, [twoInOneWrite], { stopAfter: 2 });
    expect(result.responses).toEqual([]);
    await Bun.sleep(200);
    expect(usedWords()).toBe(before);
    db.close();
    // The first was scored and refunded, logged as the client having gone; the second never ran.
    const requests = server.lines
      .slice(logged)
      .filter((l) => l.includes('"event":"request"'))
      .map((l) => JSON.parse(l));
    expect(requests.length).toBeGreaterThanOrEqual(1);
    for (const request of requests) expect([request.status, request.code]).toEqual([499, 'client_closed']);
  });
});
