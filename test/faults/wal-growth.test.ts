/**
 * Issue 29 item 2: the SQLite WAL must stay bounded under sustained load. Before, 30 s of keyed
 * single requests from one key grew it to 1.63 GB (~38 KB a request) and unkeyed ones to 433 MB
 * after 104,694 requests: the background checkpointer's PASSIVE checkpoints copied frames back but
 * the WAL never restarted while readers and writers never paused. Keep-alive clients send
 * detections back to back to a real server (keyed, then unkeyed) while the WAL and the database are
 * sampled; then the kept records expire and must give their space back.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { Database } from 'bun:sqlite';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROSE } from '../http/helpers';
import { runCommand, startServerProcess, type ServerProcess } from '../fixtures/server-process';
import { runKeepAliveClients } from './fixtures/keepalive-clients';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'fault-wal-'));
const DB = join(dir, 'db.sqlite');
// No bound on kept answers per key (IDEMPOTENCY_MAX_PER_KEY, issue 33): this test measures the WAL and the database while thousands accumulate.
const ENV = { DATABASE_PATH: DB, BOOTSTRAP_KEY: '0', WORKERS: '1', IDEMPOTENCY_MAX_PER_KEY: '0' };
const MB = 1024 * 1024;
/** Seconds of each phase (WAL_SOAK_SECONDS to lengthen it). */
const PHASE_SECONDS = Number(process.env.WAL_SOAK_SECONDS ?? 10);
const CLIENTS = 8;
/** The bound the issue asks for: tens of MB. */
const WAL_CEILING_MB = 32;
let server: ServerProcess;
let key = '';

const sizeMb = (path: string) => (existsSync(path) ? statSync(path).size / MB : 0);

beforeAll(async () => {
  const created = runCommand(['bun', 'src/main.ts', 'keys', 'create', '--plan', 'enterprise'], ROOT, ENV);
  expect(created.code).toBe(0);
  key = created.out.trim().split('\n').at(-1)!;
  server = await startServerProcess(['bun', 'src/main.ts', 'serve'], { cwd: ROOT, env: ENV });
}, 30_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const BODY = JSON.stringify({ text: PROSE });

/** Back-to-back detections for PHASE_SECONDS; the answers, and the largest WAL and database seen. */
async function load(keyed: boolean) {
  let walPeak = 0;
  let dbPeak = 0;
  const sampler = setInterval(() => {
    walPeak = Math.max(walPeak, sizeMb(`${DB}-wal`));
    dbPeak = Math.max(dbPeak, sizeMb(DB));
  }, 100);
  const run = crypto.randomUUID();
  const report = await runKeepAliveClients({
    port: server.port,
    clients: CLIENTS,
    until: Bun.sleep(PHASE_SECONDS * 1000),
    request: (client, n) =>
      `POST /v1/detect HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\n${keyed ? `Idempotency-Key: ${run}-${client}-${n}\r\n` : ''}Content-Length: ${Buffer.byteLength(BODY)}\r\n\r\n${BODY}`,
  });
  clearInterval(sampler);
  return { answered: report.statuses[200] ?? 0, statuses: report.statuses, walPeak, dbPeak };
}

/** Average size of a kept (sealed) answer as stored, in KB. */
const storedAnswerKb = () => {
  const db = new Database(DB, { readonly: true });
  try {
    return (db.query('SELECT avg(length(answer)) AS a FROM idempotency_records').get() as { a: number }).a / 1024;
  } finally {
    db.close();
  }
};

const records = () => {
  const db = new Database(DB, { readonly: true });
  try {
    return (db.query('SELECT count(*) AS n FROM idempotency_records').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('the SQLite WAL under sustained load', () => {
  let keptRecords = 0;

  it(`stays under ${WAL_CEILING_MB} MB through ${PHASE_SECONDS} s of keyed detections, the database growing only with the kept answers`, async () => {
    // The answer each kept record holds (sealed), as the client gets it.
    const answer = await fetch(`${server.base}/v1/detect`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: BODY,
    });
    const answerKb = (await answer.arrayBuffer()).byteLength / 1024;
    const outcome = await load(true);
    keptRecords = records();
    const perRecordKb = (outcome.dbPeak * 1024) / keptRecords;
    console.log(
      `keyed: ${outcome.answered} answers in ${PHASE_SECONDS} s, WAL peak ${outcome.walPeak.toFixed(1)} MB, database peak ${outcome.dbPeak.toFixed(1)} MB for ${keptRecords} kept answers of ${answerKb.toFixed(2)} KB, ${storedAnswerKb().toFixed(2)} KB sealed (${perRecordKb.toFixed(2)} KB of database each)`,
    );
    expect(Object.keys(outcome.statuses)).toEqual(['200']);
    expect(outcome.answered).toBeGreaterThan(1000);
    expect(keptRecords).toBe(outcome.answered);
    expect(outcome.walPeak).toBeLessThan(WAL_CEILING_MB);
    // A kept answer is deflated before it is sealed: the stored answer (base64) is well under the
    // answer (1.9 KB for 3.3 KB here; before issue 29 it was larger than the answer, 4.9 KB for 3.7).
    const stored = storedAnswerKb();
    expect(stored).toBeLessThan(answerKb * 0.7);
    // The database is what it keeps: each record (its answer, two 64-character hex keys and a few
    // integers) in B-tree pages at least half full, its usage event (~0.1 KB), nothing else.
    expect(perRecordKb).toBeLessThan(2 * (stored + 0.2) + 0.1);
  });

  it(`stays under ${WAL_CEILING_MB} MB through ${PHASE_SECONDS} s of detections without the header`, async () => {
    const before = sizeMb(DB);
    const outcome = await load(false);
    console.log(
      `unkeyed: ${outcome.answered} answers in ${PHASE_SECONDS} s, WAL peak ${outcome.walPeak.toFixed(1)} MB, database ${before.toFixed(1)} -> ${outcome.dbPeak.toFixed(1)} MB`,
    );
    expect(Object.keys(outcome.statuses)).toEqual(['200']);
    expect(outcome.answered).toBeGreaterThan(1000);
    expect(outcome.walPeak).toBeLessThan(WAL_CEILING_MB);
    // Nothing is kept but usage events (~60 bytes each) and the month's counters.
    expect(outcome.dbPeak - before).toBeLessThan((outcome.answered * 0.2) / 1024 + 1);
  });

  it('gives the space of expired idempotency records back to the file system', async () => {
    expect(await server.stop()).toBe(0);
    const full = sizeMb(DB);
    // 24 hours pass for the kept answers.
    const db = new Database(DB);
    db.query('UPDATE idempotency_records SET expires_at = 0').run();
    db.close();
    server = await startServerProcess(['bun', 'src/main.ts', 'serve'], { cwd: ROOT, env: ENV });
    // The first keyed request of a process purges what expired.
    const response = await fetch(`${server.base}/v1/detect`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': 'after-a-day' },
      body: BODY,
    });
    expect(response.status).toBe(200);
    let emptied = full;
    for (let i = 0; i < 50 && emptied > full / 2; i++) {
      await Bun.sleep(100);
      emptied = sizeMb(DB);
    }
    console.log(`expired: ${keptRecords} records purged, database ${full.toFixed(1)} -> ${emptied.toFixed(1)} MB`);
    expect(records()).toBe(1);
    expect(emptied).toBeLessThan(full / 2);
  });
});
