/**
 * Stored profiles are checked when read back (issue 44 items 4 and 5), through the real server on
 * SQLite and on PostgreSQL: an adapted profile made through the API, its row edited in the database
 * (format 99; "999 of 150 flagged" with rate 0; `samples: "garbage"`; weights of ±1e308; the absurd
 * numbers of item 5), read by a process that never saw it (a copy under a new id, and the original row
 * edited then the server restarted): a detection naming it answers 400 `calibration_invalid`, JSON and
 * batch alike, never 200 with `score: null`. Skips PostgreSQL where it is not installed.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aiNotes, humanNotes } from '../../scripts/lib/calibration-texts';
import { ABSURD_EDITS } from '../fixtures/absurd-profiles';
import { POSTGRES_MISSING, startPostgres, warnIfMissing, type PostgresCluster } from '../fixtures/postgres';
import type { ServerProcess } from '../fixtures/server-process';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { createKeyOn, postgresTarget, sqliteTarget, startOn, tearDown, type Target } from './store-target';

setDefaultTimeout(SUITE_TIMEOUT_MS);
warnIfMissing('test/faults/stored-profiles.test.ts');

const dir = mkdtempSync(join(tmpdir(), 'stored-profiles-'));
const servers = new Set<ServerProcess>();
let cluster: PostgresCluster | undefined;
afterAll(() => tearDown(servers, cluster, dir));

/** The row edits of issue 44 item 4, then item 5's (shared with the CLI's test). */
const EDITS: Array<[string, (p: any) => void]> = [
  ['format 99', (p) => void (p.format = 99)],
  [
    '999 of 150 flagged with rate 0',
    (p) => {
      Object.assign(p.languages.en.modes.balanced, { flagged: 999, rate: 0 });
    },
  ],
  ['samples: "garbage"', (p) => void (p.languages.en.samples = 'garbage')],
  ['not JSON', () => {}],
  ...ABSURD_EDITS.map(([name, edit]) => [name, edit] as [string, (p: unknown) => void]),
];

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;
const newId = () => `cal_${crypto.randomUUID().replaceAll('-', '').slice(0, 22)}`;

async function api(server: ServerProcess, key: string, path: string, init: { json?: unknown; body?: BodyInit } = {}) {
  const headers: Record<string, string> = { 'x-api-key': key };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
  const response = await fetch(`${server.base}${path}`, { method: body === undefined ? 'GET' : 'POST', headers, body });
  const text = await response.text();
  let json: Record<string, any> = {};
  try {
    json = JSON.parse(text);
  } catch {
    // NDJSON
  }
  return { status: response.status, json, text };
}

/** What a detection naming `id` answers: JSON, and a one-file batch. */
async function detectWith(server: ServerProcess, key: string, id: string) {
  const single = await api(server, key, '/v1/detect', { json: { text: aiNotes(200)[195], calibration: id } });
  const form = new FormData();
  form.append('files[]', new File([aiNotes(200)[196]], 'note.txt'));
  form.append('calibration', id);
  const batch = await api(server, key, '/v1/detect', { body: form });
  return { single, batch };
}

function suite(name: string, open: () => Promise<Target>) {
  describe(`stored profiles read back on ${name} (issue 44 items 4-5)`, () => {
    let target: Target;
    let server: ServerProcess;
    let key = '';
    let id = '';
    let row = '';
    beforeAll(async () => {
      target = await open();
      server = await startOn(target, servers, { RATE_LIMITS: '0' });
      key = createKeyOn(target);
      const made = await api(server, key, '/v1/calibrations', { json: { name: 'Diaries', texts: humanNotes(150), aiTexts: aiNotes(80) } });
      expect(made.status).toBe(201);
      expect(made.json.languages.en.adaptation).not.toBeNull();
      id = made.json.id;
      row = String((await target.run(`SELECT profile FROM calibrations WHERE id = ${quote(id)}`))[0].profile);
    });

    it('applies the profile as stored: 200 with a score', async () => {
      const { single, batch } = await detectWith(server, key, id);
      expect([single.status, typeof single.json.score, single.json.calibration?.id]).toEqual([200, 'number', id]);
      expect(batch.status).toBe(200);
      expect(batch.text).toContain('"type":"result"');
    });

    for (const [what, edit] of EDITS) {
      it(`refuses a row edited to ${what}: 400 calibration_invalid, JSON and batch`, async () => {
        let profile = 'not JSON';
        if (what !== 'not JSON') {
          const edited = JSON.parse(row);
          edit(edited);
          profile = JSON.stringify(edited);
        }
        // A copy under a new id: read by this process for the first time, as after a restart.
        const copy = newId();
        await target.run(
          `INSERT INTO calibrations (id, key_id, name, model_version, created_at, summary, profile)
           SELECT ${quote(copy)}, key_id, name, model_version, created_at, summary, ${quote(profile)} FROM calibrations WHERE id = ${quote(id)}`,
        );
        const { single, batch } = await detectWith(server, key, copy);
        expect([single.status, single.json.error?.code]).toEqual([400, 'calibration_invalid']);
        expect(single.json.error.message).toContain(copy);
        expect([batch.status, batch.json.error?.code]).toEqual([400, 'calibration_invalid']);
      });
    }

    it('refuses the original row edited in place once the server restarts', async () => {
      const edited = JSON.parse(row);
      const w: number[] = edited.languages.en.adaptation.fit.weights;
      w.forEach((_, i) => {
        w[i] = i % 2 ? 1e308 : -1e308;
      });
      await target.run(`UPDATE calibrations SET profile = ${quote(JSON.stringify(edited))} WHERE id = ${quote(id)}`);
      await server.stop();
      servers.delete(server);
      server = await startOn(target, servers, { RATE_LIMITS: '0' });
      const { single } = await detectWith(server, key, id);
      expect([single.status, single.json.error?.code, single.json.score]).toEqual([400, 'calibration_invalid', undefined]);
    });
  });
}

suite('SQLite', async () => sqliteTarget(dir, 'stored'));
describe.if(!POSTGRES_MISSING)('PostgreSQL', () => {
  suite('PostgreSQL', async () => {
    cluster ??= startPostgres();
    return postgresTarget(cluster, 'stored');
  });
});
