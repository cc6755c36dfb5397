/**
 * Issue 33 item 6: tables that only grow. `usage_events` got one row per request and nothing
 * deleted it (~58 bytes a request); kept Idempotency-Key answers grew the database ~2.2 KB each for
 * 24 h, without a bound per key. Now events older than USAGE_RETENTION_DAYS are folded into
 * per-key monthly totals (what `keys usage` counts) and deleted, and a key keeps at most
 * IDEMPOTENCY_MAX_PER_KEY answers (the oldest go first). Real server processes on SQLite and on
 * PostgreSQL; the old events are written into the database before the server starts, as a
 * database that has served for months would hold them.
 */
import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SQL } from 'bun';
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { PROSE } from '../http/helpers';
import { POSTGRES_MISSING, startPostgres, warnIfMissing, type PostgresCluster } from '../fixtures/postgres';
import { runCommand, startServerProcess, type ServerProcess } from '../fixtures/server-process';

setDefaultTimeout(SUITE_TIMEOUT_MS);
warnIfMissing('test/faults/table-growth.test.ts');

const ROOT = join(import.meta.dir, '../..');
const DAY_MS = 86_400_000;
/** Events older than the retention period, spread over the last 400 days before it. */
const OLD_EVENTS = 3_000;
const RETENTION_DAYS = 30;
const MAX_KEPT = 5;
const KEYED_REQUESTS = 12;

const dir = mkdtempSync(join(tmpdir(), 'table-growth-'));
let cluster: PostgresCluster | undefined;
const servers: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  cluster?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** One store under test: its environment and a way to run SQL on it (`$1` placeholders). */
interface Target {
  name: string;
  env: Record<string, string>;
  run(text: string, ...params: unknown[]): Promise<Array<Record<string, unknown>>>;
}

function sqliteTarget(): Target {
  const path = join(dir, 'db.sqlite');
  return {
    name: 'SQLite',
    env: { DATABASE_PATH: path },
    async run(text, ...params) {
      const db = new Database(path);
      try {
        return db.query(text.replace(/\$(\d+)/g, '?$1')).all(...(params as never[])) as Array<Record<string, unknown>>;
      } finally {
        db.close();
      }
    },
  };
}

async function postgresTarget(): Promise<Target> {
  cluster = startPostgres();
  const url = await cluster.createDatabase('growth');
  return {
    name: 'PostgreSQL',
    env: { DATABASE_URL: url },
    async run(text, ...params) {
      const sql = new SQL({ url, max: 1 });
      try {
        return [...(await sql.unsafe(text, params))];
      } finally {
        await sql.close();
      }
    },
  };
}

const count = async (target: Target, text: string, ...params: unknown[]) => Number((await target.run(text, ...params))[0].n);

async function exercise(target: Target) {
  const env = {
    ...target.env,
    WORKERS: '1',
    BOOTSTRAP_KEY: '0',
    USAGE_RETENTION_DAYS: String(RETENTION_DAYS),
    IDEMPOTENCY_MAX_PER_KEY: String(MAX_KEPT),
  };
  const created = runCommand(['bun', 'src/main.ts', 'keys', 'create', '--plan', 'enterprise'], ROOT, env);
  expect(created.code).toBe(0);
  const key = created.out.trim().split('\n').at(-1)!;
  const keyId = Number(/#(\d+)/.exec(created.out)![1]);
  // A database that has served for a year: events from 31 to 430 days ago, and 20 recent ones.
  const now = Date.now();
  const insert =
    'INSERT INTO usage_events (key_id, mode, words, score, status, error_code, duration_ms, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)';
  const rows: unknown[][] = [];
  for (let i = 0; i < OLD_EVENTS; i++)
    rows.push([
      keyId,
      'single',
      120,
      50,
      i % 10 === 0 ? 429 : 200,
      i % 10 === 0 ? 'rate_limited' : null,
      1.5,
      now - (RETENTION_DAYS + 1 + (i % 400)) * DAY_MS,
    ]);
  for (let i = 0; i < 20; i++) rows.push([keyId, 'single', 120, 50, 200, null, 1.5, now - i * 60_000]);
  if (target.name === 'SQLite') {
    const db = new Database(target.env.DATABASE_PATH);
    const statement = db.prepare(insert.replace(/\$(\d+)/g, '?$1'));
    db.transaction(() => {
      for (const row of rows) statement.run(...(row as never[]));
    })();
    db.close();
  } else {
    // One statement: the rows as column arrays.
    const sql = new SQL({ url: target.env.DATABASE_URL, max: 1 });
    const columns = rows[0].map((_, c) => rows.map((row) => row[c]));
    await sql.unsafe(
      `INSERT INTO usage_events (key_id, mode, words, score, status, error_code, duration_ms, created_at)
       SELECT * FROM unnest($1::integer[], $2::text[], $3::integer[], $4::integer[], $5::integer[], $6::text[], $7::float8[], $8::bigint[])`,
      columns,
    );
    await sql.close();
  }
  const requestsBefore = OLD_EVENTS + 20;

  const server = await startServerProcess(['bun', 'src/main.ts', 'serve'], { cwd: ROOT, env });
  servers.push(server);
  const detect = (idempotencyKey: string, text: string) =>
    fetch(`${server.base}/v1/detect`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify({ text }),
    });
  for (let i = 0; i < KEYED_REQUESTS; i++) {
    const answer = await detect(`growth-${i}`, `Request ${i}. ${PROSE}`);
    expect(answer.status).toBe(200);
  }
  // The newest answer is still kept: a retry is replayed.
  const replay = await detect(`growth-${KEYED_REQUESTS - 1}`, `Request ${KEYED_REQUESTS - 1}. ${PROSE}`);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  await Bun.sleep(300); // the usage events are written behind (50 ms)

  const kept = await count(target, 'SELECT count(*) AS n FROM idempotency_records');
  const oldLeft = await count(target, 'SELECT count(*) AS n FROM usage_events WHERE created_at < $1', now - RETENTION_DAYS * DAY_MS);
  const eventsLeft = await count(target, 'SELECT count(*) AS n FROM usage_events');
  const usage = runCommand(['bun', 'src/main.ts', 'keys', 'usage', String(keyId)], ROOT, env);
  const requests = Number(/Requests recorded: (\d+)/.exec(usage.out)?.[1]);
  console.log(
    `${target.name}: ${kept} kept answers after ${KEYED_REQUESTS} keyed requests (bound ${MAX_KEPT}); ${oldLeft} events older than ${RETENTION_DAYS} days left of ${OLD_EVENTS}, ${eventsLeft} rows in all; keys usage counts ${requests} requests`,
  );
  expect(kept).toBeLessThanOrEqual(MAX_KEPT);
  expect(oldLeft).toBe(0);
  // The 20 recent events, the 12 detections and the replay: kept as rows.
  expect(eventsLeft).toBe(20 + KEYED_REQUESTS + 1);
  // Nothing lost from what `keys usage` reports.
  expect(requests).toBe(requestsBefore + KEYED_REQUESTS + 1);
}

describe('tables that stop growing (issue 33 item 6)', () => {
  it('SQLite: folds events past the retention period into totals and keeps at most IDEMPOTENCY_MAX_PER_KEY answers per key', async () => {
    await exercise(sqliteTarget());
  });

  it.skipIf(POSTGRES_MISSING !== null)('PostgreSQL: the same', async () => {
    await exercise(await postgresTarget());
  });
});
