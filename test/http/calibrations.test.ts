/**
 * Calibration profiles through the real server (issue 34), on SQLite: make, list, read, delete;
 * detections and batches naming a profile; the 4xx of bad input, each with its code; a stale
 * profile; the charge (words like a detection, refused before the body is read); and privacy: a
 * marker word in the calibration texts reaches neither the database (with its WAL), nor the
 * server's stdout/stderr, nor its temporary directory.
 */
import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { humanTexts } from '../../scripts/lib/human-texts';
import { runCommand, startServerProcess, type ServerProcess } from '../fixtures/server-process';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { words } from './helpers';
import { aiNotes, humanNotes } from '../../scripts/lib/calibration-texts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'calibrations-'));
const dbPath = join(dir, 'db.sqlite');
const tmp = join(dir, 'tmp');
mkdirSync(tmp);
/** Small enough to be passed by a test, large enough for the sets below. */
const MAX_BATCH_BYTES = 2_000_000;
const MARKER = `Zanzibarquux${crypto.randomUUID().slice(0, 8)}`;
const env = { DATABASE_PATH: dbPath, WORKERS: '1', BOOTSTRAP_KEY: '0', MAX_BATCH_BYTES: String(MAX_BATCH_BYTES), TMPDIR: tmp };

let server: ServerProcess;
let key = '';
beforeAll(async () => {
  server = await startServerProcess(['bun', 'src/main.ts', 'serve'], { cwd: ROOT, env });
  key = newKey('enterprise');
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function newKey(plan: string): string {
  const result = runCommand(['bun', 'src/main.ts', 'keys', 'create', '--plan', plan], ROOT, env);
  if (result.code !== 0) throw new Error(result.err);
  return result.out.trim().split('\n').at(-1)!;
}

type Json = Record<string, any>;

async function api(
  path: string,
  init: { method?: string; key?: string; json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key ?? key) headers['x-api-key'] = init.key ?? key;
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${server.base}${path}`, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await response.text();
  let json: Json = {};
  try {
    json = JSON.parse(text);
  } catch {
    // NDJSON or empty
  }
  return { status: response.status, headers: response.headers, json, text };
}

const wordsUsed = async (secret: string) => (await api('/v1/usage', { key: secret })).json.words.used as number;

describe('calibration profiles through the server (SQLite)', () => {
  let profileId = '';

  it('makes a profile from JSON texts, charges their words like a detection, and stores no text', async () => {
    const texts = humanTexts(120, 1, MARKER);
    const before = await wordsUsed(key);
    // A text a detection would refuse (too many sentences: costly to score) is skipped too.
    const dense = 'Go. '.repeat(30_000);
    const made = await api('/v1/calibrations', { json: { name: '  Diary notes  ', texts: [...texts, 'too short to use', dense] } });
    expect(made.status).toBe(201);
    profileId = made.json.id;
    expect(profileId).toMatch(/^cal_[0-9A-Za-z]{22}$/);
    expect(made.headers.get('location')).toBe(`/v1/calibrations/${profileId}`);
    expect(made.json).toMatchObject({ name: 'Diary notes', stale: false, skipped: 2 });
    expect(made.json.modelVersion).toMatch(/^\d+\.\d+-[0-9a-f]{12}$/);
    expect(made.json.languages.en.texts).toBe(120);
    expect(Object.keys(made.json.languages.en.modes).sort()).toEqual(['aggressive', 'balanced', 'conservative']);
    expect(made.json.languages.en.samples).toBeUndefined();
    // The words of the 120 usable texts, counted the detector's way; the 4-word text is not charged.
    const charged = (await wordsUsed(key)) - before;
    const expected = texts.reduce((sum, t) => sum + t.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)!.length, 0);
    expect(charged).toBe(expected);
  });

  it('lists, reads and deletes only the key’s own profiles; another key gets 404', async () => {
    const list = await api('/v1/calibrations');
    expect(list.status).toBe(200);
    expect(list.json.limit).toBe(20);
    expect(list.json.calibrations.map((c: Json) => c.id)).toEqual([profileId]);
    const one = await api(`/v1/calibrations/${profileId}`);
    expect(one.json).toMatchObject({ id: profileId, name: 'Diary notes', stale: false });
    expect(one.json.skipped).toBeUndefined();
    const other = newKey('free');
    expect((await api('/v1/calibrations', { key: other })).json.calibrations).toEqual([]);
    for (const method of ['GET', 'DELETE']) {
      const foreign = await api(`/v1/calibrations/${profileId}`, { key: other, method });
      expect([foreign.status, foreign.json.error.code]).toEqual([404, 'calibration_not_found']);
    }
    const malformed = await api('/v1/calibrations/cal_short');
    expect([malformed.status, malformed.json.error.code]).toEqual([400, 'invalid_calibration_id']);
    const foreignDetect = await api('/v1/detect', { key: other, json: { text: humanTexts(1, 7)[0], calibration: profileId } });
    expect([foreignDetect.status, foreignDetect.json.error.code]).toEqual([404, 'calibration_not_found']);
    expect(await wordsUsed(other)).toBe(0); // refused before any charge
    expect((await api('/v1/calibrations')).json.calibrations).toHaveLength(1);
  });

  it('decides a detection with the profile and says so; the score never moves', async () => {
    const text = humanTexts(1, 42)[0];
    const plain = await api('/v1/detect', { json: { text, sensitivity: 'balanced' } });
    const calibrated = await api('/v1/detect', { json: { text, sensitivity: 'balanced', calibration: profileId } });
    expect(plain.status).toBe(200);
    expect(calibrated.status).toBe(200);
    expect(plain.json.calibration).toBeUndefined();
    expect(calibrated.json.score).toBe(plain.json.score);
    expect(calibrated.json.calibration).toMatchObject({ id: profileId, name: 'Diary notes' });
    expect(typeof calibrated.json.calibration.applied).toBe('boolean');
    if (calibrated.json.calibration.applied) {
      expect(calibrated.json.measuredError).toMatchObject({ source: 'calibration', humanTexts: 120 });
      expect(calibrated.json.measuredError.upperBound).toBeGreaterThan(0);
    } else expect(calibrated.json.calibration.reason).toEqual(expect.any(String));
    // Conservative needs 99+ texts for its 1% promise at k = 0; 120 texts allow it.
    const conservative = await api('/v1/detect', { json: { text, calibration: profileId } });
    expect(conservative.json.calibration.reason).not.toBe('too_few_texts');
    // A profile of English texts says nothing about Spanish ones: the model's bar, and why.
    const spanish =
      'Ayer fuimos al mercado temprano porque el autobús llegó tarde otra vez. Compramos tomates baratos que no sabían a nada, ' +
      'y mi hermana llamó para hablar de la caldera, que sigue haciendo ese ruido tan raro por las noches.';
    const other = await api('/v1/detect', { json: { text: spanish, calibration: profileId } });
    expect(other.status).toBe(200);
    expect(other.json.language).toBe('es');
    expect(other.json.calibration).toEqual({
      id: profileId,
      name: 'Diary notes',
      applied: false,
      reason: 'language_not_covered',
      adapted: false,
    });
    expect(other.json.measuredError.source).toBe('model');
  });

  it('carries the profile on every result line of a batch naming it', async () => {
    const form = new FormData();
    for (const [i, text] of humanTexts(2, 9).entries()) form.append('files[]', new File([text], `note-${i}.txt`));
    form.append('calibration', profileId);
    const batch = await api('/v1/detect', { body: form });
    expect(batch.status).toBe(200);
    const results = batch.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((line) => line.type === 'result');
    expect(results).toHaveLength(2);
    for (const line of results) {
      expect(line.calibration).toMatchObject({ id: profileId, name: 'Diary notes' });
      expect(['model', 'calibration']).toContain(line.measuredError.source);
    }
    const unknown = new FormData();
    unknown.append('files[]', new File([humanTexts(1, 3)[0]], 'a.txt'));
    unknown.append('calibration', 'cal_0000000000000000000000');
    const refused = await api('/v1/detect', { body: unknown });
    expect([refused.status, refused.json.error.code]).toEqual([404, 'calibration_not_found']);
  });

  it('makes a profile from uploaded files, skipping those it cannot use', async () => {
    const form = new FormData();
    form.append('name', 'Uploaded notes');
    for (const [i, text] of humanTexts(60, 5, MARKER).entries()) form.append('files[]', new File([text], `note-${i}.md`));
    form.append('files[]', new File(['three words only'], 'short.txt'));
    form.append('files[]', new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0])], 'photo.png'));
    const made = await api('/v1/calibrations', { body: form });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ name: 'Uploaded notes', skipped: 2 });
    expect(made.json.languages.en.texts).toBe(60);
  });

  it('answers bad input with a 4xx and a stable code, charging nothing', async () => {
    const before = await wordsUsed(key);
    const cases: Array<[string, Parameters<typeof api>[1], number, string]> = [
      ['no name', { json: { texts: humanTexts(60) } }, 400, 'invalid_request'],
      ['texts not strings', { json: { name: 'x', texts: [1, 2] } }, 400, 'invalid_request'],
      ['not JSON', { body: '{"name":', headers: { 'content-type': 'application/json' } }, 400, 'invalid_json'],
      ['no usable text', { json: { name: 'x', texts: ['short one', ''] } }, 422, 'calibration_empty'],
      ['too few texts', { json: { name: 'x', texts: humanTexts(30, 2, MARKER) } }, 422, 'calibration_too_small'],
      ['too many texts', { json: { name: 'x', texts: Array.from({ length: 5001 }, () => 'a') } }, 413, 'too_many_texts'],
      ['oversized body', { json: { name: 'x', texts: [words(10)].concat('y'.repeat(MAX_BATCH_BYTES)) } }, 413, 'payload_too_large'],
      ['plain text', { body: 'hello', headers: { 'content-type': 'text/plain' } }, 415, 'unsupported_media_type'],
    ];
    for (const [what, init, status, code] of cases) {
      const answer = await api('/v1/calibrations', init);
      expect([what, answer.status, answer.json.error?.code]).toEqual([what, status, code]);
    }
    const small = await api('/v1/calibrations', { json: { name: 'x', texts: humanTexts(30, 2) } });
    expect(small.json.error.message).toContain('30');
    expect(await wordsUsed(key)).toBe(before);
  });

  it('adapts a profile to AI examples sent as aiTexts, charges their words, and decides detections on the adapted score (issue 38)', async () => {
    const human = humanNotes(150);
    const ai = aiNotes(80).map((t) => `${t} ${MARKER}`);
    const before = await wordsUsed(key);
    // Sent twice, a text is one text: not scored, not charged (issue 40 item 7).
    const made = await api('/v1/calibrations', {
      json: { name: 'Adapted', texts: [...human, ...human.slice(0, 10)], aiTexts: [...ai, ai[0]] },
    });
    expect(made.status).toBe(201);
    const en = made.json.languages.en;
    expect(en.texts).toBe(150);
    expect(made.json.duplicates).toEqual({ human: 10, ai: 1 });
    expect(en.notAdapted).toBeNull();
    expect(en.adaptation).toMatchObject({ aiTexts: 80 });
    expect(en.adaptation.fit).toBeUndefined();
    expect(en.adaptation.modes.balanced.catchRate).toBeGreaterThan(en.adaptation.modes.balanced.modelCatchRate);
    expect(made.json.warnings).toEqual([]);
    const count = (ts: string[]) => ts.reduce((sum, t) => sum + t.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)!.length, 0);
    expect((await wordsUsed(key)) - before).toBe(count(human) + count(ai));
    const id = made.json.id;
    expect((await api(`/v1/calibrations/${id}`)).json.languages.en.adaptation.aiTexts).toBe(80);
    let adapted = 0;
    for (const text of [...aiNotes(200).slice(170, 180), ...humanNotes(200).slice(170, 180)]) {
      const plain = await api('/v1/detect', { json: { text, sensitivity: 'balanced' } });
      const r = await api('/v1/detect', { json: { text, sensitivity: 'balanced', calibration: id } });
      if (!r.json.calibration.adapted) {
        expect(r.json.score).toBe(plain.json.score);
        continue;
      }
      adapted++;
      expect(r.json.calibration).toMatchObject({ applied: true, reason: null, adaptedScore: r.json.score, modelScore: plain.json.score });
      expect(r.json.measuredError.source).toBe('calibration');
    }
    expect(adapted).toBeGreaterThan(5);
    // A batch line carries the same.
    const form = new FormData();
    form.append('files[]', new File([aiNotes(200)[175]], 'a.txt'));
    form.append('calibration', id);
    const line = (await api('/v1/detect', { body: form })).text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((l) => l.type === 'result');
    expect(line.calibration.id).toBe(id);
    if (line.calibration.adapted) expect(line.calibration.adaptedScore).toBe(line.score);
    expect((await api(`/v1/calibrations/${id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('takes AI examples as aiFiles[] too, and says why a language with too few was not adapted', async () => {
    const form = new FormData();
    form.append('name', 'Few AI files');
    for (const [i, text] of humanNotes(120).entries()) form.append('files[]', new File([text], `h-${i}.txt`));
    for (const [i, text] of aiNotes(30).entries()) form.append('aiFiles[]', new File([`${text} ${MARKER}`], `ai-${i}.txt`));
    const made = await api('/v1/calibrations', { body: form });
    expect(made.status).toBe(201);
    expect(made.json.languages.en.adaptation).toBeNull();
    expect(made.json.languages.en.notAdapted).toEqual({ reason: 'too_few_ai_texts', aiTexts: 30, minAiTexts: 50, auroc: null });
    expect(made.json.warnings).toContainEqual({ code: 'not_adapted', language: 'en', reason: 'too_few_ai_texts', aiTexts: 30, needed: 50 });
    expect((await api(`/v1/calibrations/${made.json.id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('refuses a key that cannot pay before reading the body', async () => {
    const poor = newKey('free');
    // 9,990 of its 10,000 words used this month, written as a charge would.
    const db = new Database(dbPath);
    const { id } = db.query('SELECT max(id) AS id FROM api_keys').get() as { id: number };
    db.run('INSERT INTO monthly_usage (key_id, period, words_used, calls) VALUES (?, ?, 9990, 1)', [
      id,
      new Date().toISOString().slice(0, 7),
    ]);
    db.close();
    expect(await wordsUsed(poor)).toBe(9_990);
    // A declared body far over MAX_BATCH_BYTES: read first, it would be 413; refused first, 429.
    const refused = await api('/v1/calibrations', {
      key: poor,
      body: 'x'.repeat(MAX_BATCH_BYTES + 10),
      headers: { 'content-type': 'application/json' },
    });
    expect([refused.status, refused.json.error.code]).toEqual([429, 'quota_exceeded']);
  });

  it('says a profile of another model is stale, and detections fall back with model_changed', async () => {
    const db = new Database(dbPath);
    const staleId = 'cal_STALEstaleSTALEstale00';
    db.run(
      "INSERT INTO calibrations SELECT ?, key_id, name, 'old-model', created_at, summary, replace(profile, model_version, 'old-model') FROM calibrations WHERE id = ?",
      [staleId, profileId],
    );
    db.close();
    expect((await api(`/v1/calibrations/${staleId}`)).json).toMatchObject({ id: staleId, stale: true, modelVersion: 'old-model' });
    const detected = await api('/v1/detect', { json: { text: humanTexts(1, 11)[0], calibration: staleId } });
    expect(detected.status).toBe(200);
    expect(detected.json.calibration).toEqual({
      id: staleId,
      name: 'Diary notes',
      applied: false,
      reason: 'model_changed',
      adapted: false,
    });
    expect(detected.json.measuredError.source).toBe('model');
  });

  it('deletes a profile: 204, then 404 everywhere', async () => {
    expect((await api(`/v1/calibrations/${profileId}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/v1/calibrations/${profileId}`)).status).toBe(404);
    const detected = await api('/v1/detect', { json: { text: humanTexts(1, 12)[0], calibration: profileId } });
    expect([detected.status, detected.json.error.code]).toEqual([404, 'calibration_not_found']);
  });

  it('never writes a calibration text to the database, its WAL, the logs or temporary files', async () => {
    const needles = [MARKER, `${MARKER} was there too`];
    // The control: names are stored, so the scan must find this one in the database files (it can fail).
    const control = `Controlname${crypto.randomUUID().slice(0, 8)}`;
    expect((await api('/v1/calibrations', { json: { name: control, texts: humanTexts(60, 6) } })).status).toBe(201);
    const files = [dbPath, `${dbPath}-wal`, `${dbPath}-shm`].filter(existsSync);
    expect(files.length).toBeGreaterThan(1);
    const walk = (path: string): string[] =>
      statSync(path).isDirectory() ? readdirSync(path).flatMap((name) => walk(join(path, name))) : [path];
    const temporary = walk(tmp);
    expect(files.some((file) => readFileSync(file).toString('latin1').includes(control))).toBe(true);
    for (const needle of needles) {
      const utf16 = Buffer.from(needle, 'utf16le').toString('latin1');
      for (const file of [...files, ...temporary]) {
        const bytes = readFileSync(file).toString('latin1');
        expect([file, bytes.includes(needle) || bytes.includes(utf16)]).toEqual([file, false]);
      }
      expect(server.lines.join('\n').includes(needle)).toBe(false);
      expect(server.errLines.join('\n').includes(needle)).toBe(false);
    }
    // The marker did reach the server: the profiles were made from texts that carried it.
    expect(server.lines.some((line) => line.includes('"path":"/v1/calibrations"') && line.includes('"status":201'))).toBe(true);
  });
});
