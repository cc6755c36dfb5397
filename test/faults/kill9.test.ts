/**
 * Issue 16 item 6: kill -9 under load, then restart. Every server process (primary and worker) is
 * killed with SIGKILL while keep-alive clients send detections and batches; the server restarts on
 * the same SQLite file. Then the database passes `PRAGMA integrity_check`, and the words charged
 * lie between the words of the answered requests and those plus the requests in flight (a charge
 * is committed before its answer is sent; a request whose client never saw an answer may or may not
 * have been charged). Two rounds, real processes.
 */
import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLANS } from '../../src/plans';
import { PROSE } from '../http/helpers';
import { childrenOf, runCommand, startServerProcess, type ServerProcess } from '../fixtures/server-process';
import { runKeepAliveClients, type LoadReport } from './fixtures/keepalive-clients';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'fault-kill9-'));
const databasePath = join(dir, 'kill9.sqlite');
const env = { DATABASE_PATH: databasePath, BOOTSTRAP_KEY: '0', WORKERS: '2' };
const pids = new Set<number>();
afterAll(() => {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Words in PROSE (the detector's count). */
const PROSE_WORDS = 60;
const FILES_PER_BATCH = 3;
const BOUNDARY = 'kill9Boundary';
const BATCH_BODY = `${Array.from(
  { length: FILES_PER_BATCH },
  (_, i) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files[]"; filename="f${i}.txt"\r\nContent-Type: text/plain\r\n\r\n${PROSE}\r\n`,
).join('')}--${BOUNDARY}--\r\n`;
const JSON_BODY = JSON.stringify({ text: PROSE });

function usedWords(): number {
  const db = new Database(databasePath, { readonly: true });
  try {
    return (db.query('SELECT COALESCE(SUM(words_used), 0) AS used FROM monthly_usage').get() as { used: number }).used;
  } finally {
    db.close();
  }
}

async function startServer(): Promise<ServerProcess> {
  const server = await startServerProcess(['bun', 'src/main.ts', 'serve'], { cwd: ROOT, env });
  pids.add(server.pid);
  await server.waitFor(/"event":"worker_listening"/);
  for (const child of childrenOf(server.pid)) pids.add(child);
  return server;
}

/** Requests written whose answer never arrived whole: each may or may not have been charged. */
function inFlight(report: LoadReport): number {
  return report.counts.reset + report.counts.truncated + report.counts.unanswered;
}

/** Load from detection and batch clients until every process is SIGKILLed; returns what the clients saw. */
async function loadThenKill(server: ServerProcess, key: string) {
  const processes = [server.pid, ...childrenOf(server.pid)];
  expect(processes).toHaveLength(2);
  let killed!: () => void;
  const gone = new Promise<void>((resolve) => (killed = resolve));
  let answeredWords = 0;
  const onAnswer = (status: number, body: string) => {
    if (status !== 200) return;
    if (body.startsWith('{"type"')) {
      for (const line of body.split('\n').filter(Boolean)) answeredWords += JSON.parse(line).type === 'result' ? JSON.parse(line).words : 0;
    } else answeredWords += JSON.parse(body).words;
  };
  const detect = runKeepAliveClients({
    port: server.port,
    clients: 12,
    until: gone,
    onAnswer,
    request: () =>
      `POST /api/detect HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(JSON_BODY)}\r\n\r\n${JSON_BODY}`,
  });
  const batches = runKeepAliveClients({
    port: server.port,
    clients: 4,
    until: gone,
    onAnswer,
    request: () =>
      `POST /api/detect HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${Buffer.byteLength(BATCH_BODY)}\r\n\r\n${BATCH_BODY}`,
  });
  await Bun.sleep(1500);
  for (const pid of processes) process.kill(pid, 'SIGKILL');
  await server.proc.exited;
  killed();
  const [detectReport, batchReport] = await Promise.all([detect, batches]);
  return {
    answeredWords,
    inFlightWords: inFlight(detectReport) * PROSE_WORDS + inFlight(batchReport) * PROSE_WORDS * FILES_PER_BATCH,
    answered: detectReport.counts.answered + batchReport.counts.answered,
  };
}

describe('kill -9 under load', () => {
  it('leaves a database that passes integrity_check and charges no more than the answers plus the requests in flight', async () => {
    const created = runCommand(['bun', 'src/main.ts', 'keys', 'create', '--plan', 'enterprise'], ROOT, env);
    expect(created.code).toBe(0);
    const key = created.out.trim().split('\n').at(-1)!;
    let answeredWords = 0;
    let inFlightWords = 0;
    for (let round = 1; round <= 2; round++) {
      const server = await startServer();
      const outcome = await loadThenKill(server, key);
      expect(outcome.answered).toBeGreaterThan(16);
      answeredWords += outcome.answeredWords;
      inFlightWords += outcome.inFlightWords;
      // Read straight from the file after the kill: what survived is what was committed.
      const charged = usedWords();
      console.log(
        `kill -9 round ${round}: ${outcome.answered} answers, charged ${charged} words, answered ${answeredWords}, in flight ${inFlightWords}`,
      );
      expect(charged).toBeGreaterThanOrEqual(answeredWords);
      expect(charged).toBeLessThanOrEqual(answeredWords + inFlightWords);
    }

    // A restart on the killed database: it opens, its pages are intact, and the quota goes on from the charges.
    const server = await startServer();
    const db = new Database(databasePath, { readonly: true });
    expect(db.query('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
    db.close();
    const charged = usedWords();
    const response = await fetch(`${server.base}/api/detect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON_BODY,
    });
    expect(response.status).toBe(200);
    expect((await response.json()).rate_remaining).toBe(PLANS.enterprise.wordsPerMonth - charged - PROSE_WORDS);
    expect(await server.stop()).toBe(0);
  }, 60_000);
});
