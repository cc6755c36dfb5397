import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, freshStore, makeApp, PROSE } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const dir = mkdtempSync(join(tmpdir(), 'detector-privacy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function diskBytes(path: string): string {
  return [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]
    .filter((p) => existsSync(p))
    .map((p) => readFileSync(p).toString('latin1'))
    .join('\n');
}

describe('privacy', () => {
  it('never writes submitted text to the database (with its WAL) or the log', async () => {
    const token = `Quixotic${crypto.randomUUID().replaceAll('-', '')}`;
    const sentence = `The marmalade ${token} sailed past the lighthouse of forgotten spreadsheets at noon.`;
    const text = `${PROSE} ${sentence}`;
    const path = join(dir, 'privacy.sqlite');
    const store = freshStore(path);
    const db = store.db;
    const { app, logs, newKey } = makeApp({}, store);
    const key = (await newKey()).key;
    const ok = await call(app, '/api/detect', { key, json: { text } });
    expect(ok.status).toBe(200);
    // Failed requests must not leak the text either.
    expect((await call(app, '/api/detect', { key, json: { text, sensitivity: 'nope' } })).status).toBe(400);
    expect((await call(app, '/api/detect', { key, json: { text: sentence } })).status).toBe(400);
    expect(
      (await call(app, '/api/detect', { key, body: `{"text": "${sentence}`, headers: { 'content-type': 'application/json' } })).status,
    ).toBe(400);
    expect((await call(app, '/api/detect', { json: { text } })).status).toBe(401);

    const needles = [token, sentence, 'marmalade', 'lighthouse of forgotten'];
    const utf16 = (s: string) => Buffer.from(s, 'utf16le').toString('latin1');
    const live = diskBytes(path);
    expect(live.length).toBeGreaterThan(0);
    for (const needle of needles) {
      expect(live.includes(needle)).toBe(false);
      expect(live.includes(utf16(needle))).toBe(false);
      expect(logs.join('').includes(needle)).toBe(false);
    }
    // Metadata is what is stored and logged.
    expect(logs.length).toBe(5);
    await store.usage.flush();
    const event = db.$client.query('SELECT * FROM usage_events WHERE status = 200').get() as Record<string, unknown>;
    expect(Object.keys(event).sort()).toEqual([
      'created_at',
      'duration_ms',
      'error_code',
      'id',
      'key_id',
      'mode',
      'score',
      'status',
      'words',
    ]);
    await store.close(); // checkpoints the WAL into the main file
    const closed = diskBytes(path);
    for (const needle of needles) expect(closed.includes(needle)).toBe(false);
  });
});
