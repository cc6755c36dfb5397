/**
 * Other writers on PostgreSQL (issue 43 items 3 and 5): a server on a PostgreSQL database makes a
 * guarded profile (the shipped reference writers), keeps its figures (`guard`, each mode's
 * `otherWriters`) and answers them as made, in GET and the list; a detection and a batch line decided
 * with it carry the decided mode's figures in `measuredError.otherWriters`. The profile is made from
 * students' essays of the shared dev split (OUTFOX), a kind the reference writers cover, or from the
 * generated notes when the data is absent (then no population is guarded, and the figures say so).
 * Skips where PostgreSQL is not installed.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { join } from 'node:path';
import { aiNotes, humanNotes } from '../../scripts/lib/calibration-texts';
import { hasData, loadRows, sourceOfFile, splitFiles } from '../../scripts/lib/data';
import { SENSITIVITIES } from '../../src/contract';
import { POSTGRES_MISSING, startPostgres, warnIfMissing, type PostgresCluster } from '../fixtures/postgres';
import { runCommand, startServerProcess, type ServerProcess } from '../fixtures/server-process';
import { SUITE_TIMEOUT_MS } from '../timeout';

setDefaultTimeout(SUITE_TIMEOUT_MS);

warnIfMissing('test/faults/postgres-other-writers.test.ts');
const ROOT = join(import.meta.dir, '../..');

/** 150 human and 80 AI texts, and a human text of the same kind the profile never saw. */
function texts(): { human: string[]; ai: string[]; detected: string } {
  if (!hasData()) return { human: humanNotes(150), ai: aiNotes(80), detected: humanNotes(200)[199] };
  const rows = loadRows(splitFiles('dev').filter((f) => sourceOfFile(f) === 'outfox_essays'));
  const human = rows.filter((r) => r.label === 'human').map((r) => r.text);
  const ai = rows.filter((r) => r.label === 'ai').map((r) => r.text);
  return { human: human.slice(0, 150), ai: ai.slice(0, 80), detected: human[150] };
}

let cluster: PostgresCluster | undefined;
let url = '';
let server: ServerProcess | undefined;
beforeAll(async () => {
  if (POSTGRES_MISSING) return;
  cluster = startPostgres();
  url = await cluster.createDatabase('other_writers');
  server = await startServerProcess(['bun', 'src/main.ts', 'serve'], {
    cwd: ROOT,
    env: { DATABASE_URL: url, WORKERS: '1', BOOTSTRAP_KEY: '0' },
  });
});
afterAll(async () => {
  await server?.stop();
  cluster?.destroy();
});

async function api(key: string, path: string, init: { json?: unknown; body?: BodyInit } = {}) {
  const headers: Record<string, string> = { 'x-api-key': key };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
  const response = await fetch(`${server!.base}${path}`, { method: body === undefined ? 'GET' : 'POST', headers, body });
  return { status: response.status, text: await response.text() };
}

describe.if(!POSTGRES_MISSING)('other writers on PostgreSQL', () => {
  it('keeps the guard’s figures and answers them in the profile, a detection and a batch line', async () => {
    const made = runCommand(['bun', 'src/main.ts', 'keys', 'create', '--plan', 'enterprise'], ROOT, { DATABASE_URL: url });
    expect(made.code).toBe(0);
    const key = made.out.trim().split('\n').at(-1)!;
    const { human, ai, detected } = texts();
    const created = await api(key, '/v1/calibrations', { json: { name: 'Essays on PostgreSQL', texts: human, aiTexts: ai } });
    expect(created.status).toBe(201);
    const profile = JSON.parse(created.text);
    const en = profile.languages.en;
    expect(en.guard.made).toBe('with_profile');
    for (const mode of SENSITIVITIES) expect(en.modes[mode].otherWriters).toMatchObject({ populations: en.guard.populations });
    if (hasData()) expect(en.guard.populations).toBeGreaterThan(0);
    // Read back from the database: the same figures.
    const one = JSON.parse((await api(key, `/v1/calibrations/${profile.id}`)).text);
    const list = JSON.parse((await api(key, '/v1/calibrations')).text);
    expect(one.languages.en.guard).toEqual(en.guard);
    for (const mode of SENSITIVITIES) {
      expect(one.languages.en.modes[mode].otherWriters).toEqual(en.modes[mode].otherWriters);
      expect(list.calibrations[0].languages.en.modes[mode].otherWriters).toEqual(en.modes[mode].otherWriters);
    }
    // Decided with the profile: the decided mode's figures, in single mode and on a batch line.
    const single = JSON.parse(
      (await api(key, '/v1/detect', { json: { text: detected, sensitivity: 'balanced', calibration: profile.id } })).text,
    );
    expect(single.calibration.applied).toBe(true);
    expect(single.measuredError.otherWriters).toEqual(en.modes.balanced.otherWriters);
    const form = new FormData();
    form.append('files[]', new File([detected], 'essay.txt'));
    form.append('calibration', profile.id);
    form.append('sensitivity', 'balanced');
    const batch = await api(key, '/v1/detect', { body: form });
    const line = batch.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((l) => l.type === 'result');
    expect(line.measuredError.otherWriters).toEqual(en.modes.balanced.otherWriters);
    expect(line.measuredError.text).toBe(single.measuredError.text);
  });
});
