/**
 * Issue 34 on PostgreSQL: two server instances on one database share calibration profiles (made on
 * one, listed and used on the other, deleted on one and refused by the other within the cache's
 * second), and no calibration text reaches the cluster's data directory (tables and WAL), its log,
 * the servers' stdout/stderr or their temporary directory. Skips where PostgreSQL is not installed.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SQL } from 'bun';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { humanTexts } from '../../scripts/lib/human-texts';
import { aiNotes, humanNotes } from '../../scripts/lib/calibration-texts';
import { CALIBRATION_CACHE_TTL_MS } from '../../src/store/calibration-cache';
import { POSTGRES_MISSING, startPostgres, warnIfMissing, type PostgresCluster } from '../fixtures/postgres';
import { runCommand, startServerProcess, type ServerProcess } from '../fixtures/server-process';
import { SUITE_TIMEOUT_MS } from '../timeout';

setDefaultTimeout(SUITE_TIMEOUT_MS);

warnIfMissing('test/faults/postgres-calibrations.test.ts');
const ROOT = join(import.meta.dir, '../..');
const MARKER = `Quetzalbrisk${crypto.randomUUID().slice(0, 8)}`;
const tmp = mkdtempSync(join(tmpdir(), 'pg-calibrations-'));

let cluster: PostgresCluster | undefined;
let url = '';
let instances: ServerProcess[] = [];
beforeAll(async () => {
  if (POSTGRES_MISSING) return;
  cluster = startPostgres();
  url = await cluster.createDatabase('calibrations');
  mkdirSync(join(tmp, 'a'));
  mkdirSync(join(tmp, 'b'));
  instances = await Promise.all(
    ['a', 'b'].map((name) =>
      startServerProcess(['bun', 'src/main.ts', 'serve'], {
        cwd: ROOT,
        env: { DATABASE_URL: url, WORKERS: '1', BOOTSTRAP_KEY: '0', TMPDIR: join(tmp, name) },
      }),
    ),
  );
});
afterAll(async () => {
  await Promise.all(instances.map((s) => s.stop()));
  cluster?.destroy();
  rmSync(tmp, { recursive: true, force: true });
});

function newKey(): string {
  const result = runCommand(['bun', 'src/main.ts', 'keys', 'create', '--plan', 'enterprise'], ROOT, { DATABASE_URL: url });
  if (result.code !== 0) throw new Error(result.err);
  return result.out.trim().split('\n').at(-1)!;
}

async function api(server: ServerProcess, key: string, path: string, init: { method?: string; json?: unknown; body?: BodyInit } = {}) {
  const headers: Record<string, string> = { 'x-api-key': key };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
  const response = await fetch(`${server.base}${path}`, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await response.text();
  let json: Record<string, any> = {};
  try {
    json = JSON.parse(text);
  } catch {
    // NDJSON or empty
  }
  return { status: response.status, json, text };
}

/** Every file under `path`. */
function walk(path: string): string[] {
  return statSync(path).isDirectory() ? readdirSync(path).flatMap((name) => walk(join(path, name))) : [path];
}

describe.if(!POSTGRES_MISSING)('calibration profiles on two instances sharing PostgreSQL', () => {
  let key = '';
  let id = '';

  it('makes a profile on one instance and uses it on the other', async () => {
    key = newKey();
    const [a, b] = instances;
    const made = await api(a, key, '/v1/calibrations', { json: { name: 'Shared notes', texts: humanTexts(110, 3, MARKER) } });
    expect(made.status).toBe(201);
    id = made.json.id;
    expect((await api(b, key, '/v1/calibrations')).json.calibrations.map((c: { id: string }) => c.id)).toEqual([id]);
    expect((await api(b, key, `/v1/calibrations/${id}`)).json).toMatchObject({ id, name: 'Shared notes', stale: false });
    const detected = await api(b, key, '/v1/detect', { json: { text: humanTexts(1, 77)[0], calibration: id } });
    expect(detected.status).toBe(200);
    expect(detected.json.calibration).toMatchObject({ id, name: 'Shared notes' });
    const form = new FormData();
    form.append('files[]', new File([humanTexts(1, 78)[0]], 'note.txt'));
    form.append('calibration', id);
    const batch = await api(b, key, '/v1/detect', { body: form });
    const result = batch.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((line) => line.type === 'result');
    expect(result.calibration).toMatchObject({ id });
    // Another key sees nothing of it, on either instance.
    const other = newKey();
    for (const server of instances) {
      const foreign = await api(server, other, '/v1/detect', { json: { text: humanTexts(1, 79)[0], calibration: id } });
      expect([foreign.status, foreign.json.error.code]).toEqual([404, 'calibration_not_found']);
    }
  });

  it('adapts a profile to AI examples on one instance; the other decides on its adapted score (issue 38)', async () => {
    const [a, b] = instances;
    const made = await api(a, key, '/v1/calibrations', {
      json: { name: 'Adapted notes', texts: humanNotes(150), aiTexts: aiNotes(80).map((t) => `${t} ${MARKER}`) },
    });
    expect(made.status).toBe(201);
    expect(made.json.languages.en.adaptation).toMatchObject({ aiTexts: 80 });
    expect(made.json.languages.en.adaptation.fit).toBeUndefined();
    const adaptedId = made.json.id;
    expect((await api(b, key, `/v1/calibrations/${adaptedId}`)).json.languages.en.adaptation.aiTexts).toBe(80);
    let adapted = 0;
    for (const text of aiNotes(200).slice(170, 185)) {
      const plain = await api(b, key, '/v1/detect', { json: { text, sensitivity: 'balanced' } });
      const detected = await api(b, key, '/v1/detect', { json: { text, sensitivity: 'balanced', calibration: adaptedId } });
      expect(detected.status).toBe(200);
      if (!detected.json.calibration.adapted) continue;
      adapted++;
      expect(detected.json.calibration).toMatchObject({ applied: true, adaptedScore: detected.json.score, modelScore: plain.json.score });
    }
    expect(adapted).toBeGreaterThan(0);
    expect((await api(a, key, `/v1/calibrations/${adaptedId}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('stops using a profile deleted on the other instance within the cache time', async () => {
    const [a, b] = instances;
    const text = humanTexts(1, 80)[0];
    expect((await api(b, key, '/v1/detect', { json: { text, calibration: id } })).status).toBe(200); // cached on b now
    expect((await api(a, key, `/v1/calibrations/${id}`, { method: 'DELETE' })).status).toBe(204);
    const t0 = performance.now();
    let status = 200;
    while (status === 200 && performance.now() - t0 < CALIBRATION_CACHE_TTL_MS * 3) {
      status = (await api(b, key, '/v1/detect', { json: { text, calibration: id } })).status;
      if (status === 200) await Bun.sleep(50);
    }
    expect(status).toBe(404);
    expect(performance.now() - t0).toBeLessThan(CALIBRATION_CACHE_TTL_MS + 500);
  });

  it('never writes a calibration text to the cluster (tables, WAL), its log, the servers’ output or temp files', async () => {
    // A failed calibration carries the marker too.
    expect((await api(instances[0], key, '/v1/calibrations', { json: { name: 'x', texts: humanTexts(20, 4, MARKER) } })).status).toBe(422);
    // The control: a name is stored, so the scan below must find this one (it can fail).
    const control = `Controlname${crypto.randomUUID().slice(0, 8)}`;
    expect((await api(instances[1], key, '/v1/calibrations', { json: { name: control, texts: humanTexts(60, 5) } })).status).toBe(201);
    const sql = new SQL({ url, max: 1 });
    let dataDir = '';
    try {
      await sql`CHECKPOINT`; // the WAL's pages written into the table files too
      dataDir = (await sql`SHOW data_directory`)[0].data_directory;
    } finally {
      await sql.close();
    }
    const files = [...walk(dataDir), ...walk(dirname(dataDir)).filter((f) => !f.startsWith(dataDir)), ...walk(tmp)];
    expect(files.some((f) => f.includes('pg_wal'))).toBe(true);
    const utf16 = Buffer.from(MARKER, 'utf16le').toString('latin1');
    let controlFound = false;
    for (const file of files) {
      let bytes: string;
      try {
        bytes = readFileSync(file).toString('latin1');
      } catch {
        continue; // a socket or a file gone meanwhile
      }
      expect([file, bytes.includes(MARKER) || bytes.includes(utf16)]).toEqual([file, false]);
      controlFound ||= bytes.includes(control);
    }
    expect(controlFound).toBe(true);
    for (const server of instances) {
      expect(server.lines.join('\n').includes(MARKER)).toBe(false);
      expect(server.errLines.join('\n').includes(MARKER)).toBe(false);
    }
  });
});
