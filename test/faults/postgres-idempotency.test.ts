/**
 * Issue 22: Idempotency-Key across two instances sharing one PostgreSQL. Six concurrent duplicates
 * spread over both are charged once; a retry on the other instance gets the first answer; another
 * body is refused; what PostgreSQL holds is unreadable. Skips with a message where PostgreSQL is
 * not installed.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { SQL } from 'bun';
import { join } from 'node:path';
import { PROSE } from '../http/helpers';
import { POSTGRES_MISSING, startPostgres, warnIfMissing, type PostgresCluster } from '../fixtures/postgres';
import { runCommand, startServerProcess, type ServerProcess } from '../fixtures/server-process';

setDefaultTimeout(SUITE_TIMEOUT_MS);

warnIfMissing('test/faults/postgres-idempotency.test.ts');
const ROOT = join(import.meta.dir, '../..');

let cluster: PostgresCluster | undefined;
let url = '';
let instances: ServerProcess[] = [];
let key = '';
let keyId = 0;

const env = () => ({ DATABASE_URL: url, WORKERS: '1', BOOTSTRAP_KEY: '0' });

beforeAll(async () => {
  if (POSTGRES_MISSING) return;
  cluster = startPostgres();
  url = await cluster.createDatabase('idempotency');
  instances = await Promise.all([0, 1].map(() => startServerProcess(['bun', 'src/main.ts', 'serve'], { cwd: ROOT, env: env() })));
  const created = runCommand(['bun', 'src/main.ts', 'keys', 'create', '--plan', 'essential'], ROOT, env());
  key = created.out.trim().split('\n').at(-1)!;
  keyId = Number(/#(\d+)/.exec(created.out)![1]);
}, 60_000);
afterAll(async () => {
  await Promise.all(instances.map((s) => s.stop()));
  cluster?.destroy();
});

/** Rows of a query on the shared database. */
async function query(text: string, ...params: unknown[]): Promise<Array<Record<string, unknown>>> {
  const sql = new SQL({ url, max: 1 });
  try {
    return [...(await sql.unsafe(text, params))];
  } finally {
    await sql.close();
  }
}

const wordsUsed = async () =>
  Number((await query('SELECT COALESCE(SUM(words_used), 0)::integer AS used FROM monthly_usage WHERE key_id = $1', keyId))[0].used);

function detect(server: ServerProcess, idempotencyKey: string, body: BodyInit, json = true) {
  const headers: Record<string, string> = { 'x-api-key': key, 'idempotency-key': idempotencyKey };
  if (json) headers['content-type'] = 'application/json';
  return fetch(`${server.base}/v1/detect`, { method: 'POST', headers, body });
}

describe.if(!POSTGRES_MISSING)('Idempotency-Key on two instances sharing PostgreSQL', () => {
  it('charges 6 concurrent duplicates spread over both instances once, and replays on either', async () => {
    const body = JSON.stringify({ text: PROSE });
    const responses = await Promise.all(Array.from({ length: 6 }, (_, i) => detect(instances[i % 2], 'burst-1', body)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const texts = await Promise.all(responses.map((r) => r.text()));
    expect(new Set(texts).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(5);
    const words = JSON.parse(texts[0]).words;
    expect(await wordsUsed()).toBe(words);
    for (const server of instances) {
      const retry = await detect(server, 'burst-1', body);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(await retry.text()).toBe(texts[0]);
    }
    const reused = await detect(instances[1], 'burst-1', JSON.stringify({ text: `${PROSE} And one more.` }));
    expect(reused.status).toBe(422);
    expect((await reused.json()).error.code).toBe('idempotency_key_reused');
    expect(await wordsUsed()).toBe(words);
  }, 30_000);

  it('replays a batch on the other instance, charged once', async () => {
    const before = await wordsUsed();
    const form = () => {
      const data = new FormData();
      data.append('files[]', new File([PROSE], 'a.txt'));
      return data;
    };
    const first = await detect(instances[0], 'batch-1', form(), false);
    const stream = await first.text();
    expect(stream.trim().split('\n').at(-1)).toBe('{"type":"complete","total":1}');
    const retry = await detect(instances[1], 'batch-1', form(), false);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.text()).toBe(stream);
    const result = stream
      .split('\n')
      .map((l) => (l ? JSON.parse(l) : null))
      .find((l) => l?.type === 'result');
    expect((await wordsUsed()) - before).toBe(result.words);
  }, 30_000);

  it('stores nothing readable in PostgreSQL', async () => {
    const rows = await query('SELECT id, body_check, state, answer FROM idempotency_records');
    expect(rows.length).toBe(2);
    for (const row of rows) {
      expect(row.state).toBe('done');
      expect(String(row.id)).toMatch(/^[0-9a-f]{64}$/);
      const all = Object.values(row).join(' ');
      for (const needle of ['fast-paced', 'technology', 'burst-1', 'batch-1', 'a.txt'])
        expect([needle, all.includes(needle)]).toEqual([needle, false]);
    }
  });
});
