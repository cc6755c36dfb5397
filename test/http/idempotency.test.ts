import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { Detector } from '../../src/detector/types';
import { createJsonLogger } from '../../src/http/logger';
import { IDEMPOTENCY_TTL_MS, jsonFingerprint, recordId, recordKeys } from '../../src/modules/idempotency';
import { call, detector, freshStore, keyOn, makeApp, PROSE } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const dir = mkdtempSync(join(tmpdir(), 'detector-idempotency-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Words charged to a key this month, as GET /v1/usage reports them. */
async function wordsUsed(app: ReturnType<typeof makeApp>['app'], key: string): Promise<number> {
  return (await (await call(app, '/v1/usage', { key })).json()).words.used;
}

/** A batch form with fresh FormData (and so a fresh multipart boundary) each time. */
function form(files: Array<[string, string]>, fields: Record<string, string> = {}): FormData {
  const data = new FormData();
  for (const [name, text] of files) data.append('files[]', new File([text], name));
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

describe('Idempotency-Key', () => {
  it('replays the first answer to the same key and body, charged once, with Idempotent-Replayed', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey();
    const send = (id: string) =>
      call(app, '/v1/detect', { key, json: { text: PROSE }, headers: { 'idempotency-key': 'abc-123', 'x-request-id': id } });
    const first = await send('first');
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const body = await first.text();
    const words = JSON.parse(body).words;
    // The alias path is the same route: the same record.
    const again = await call(app, '/api/detect', {
      key,
      json: { text: PROSE },
      headers: { 'idempotency-key': 'abc-123', 'x-request-id': 'again' },
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(body);
    expect(again.headers.get('x-ratelimit-remaining')).toBe(first.headers.get('x-ratelimit-remaining'));
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    // Each request keeps its own id.
    expect(again.headers.get('x-request-id')).toBe('again');
    expect(await wordsUsed(app, key)).toBe(words);
    // Without the header, the same body is a new request and charged again.
    expect((await call(app, '/v1/detect', { key, json: { text: PROSE } })).status).toBe(200);
    expect(await wordsUsed(app, key)).toBe(2 * words);
  });

  it('refuses the same key with another body (422 idempotency_key_reused), charging nothing', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey();
    const headers = { 'idempotency-key': 'order-7' };
    const first = await call(app, '/v1/detect', { key, json: { text: PROSE }, headers });
    const words = (await first.json()).words;
    const other = await call(app, '/v1/detect', { key, json: { text: `${PROSE} One more sentence here.` }, headers });
    expect(other.status).toBe(422);
    expect((await other.json()).error.code).toBe('idempotency_key_reused');
    // A change of sensitivity is another body too.
    const mode = await call(app, '/v1/detect', { key, json: { text: PROSE, sensitivity: 'aggressive' }, headers });
    expect((await mode.json()).error.code).toBe('idempotency_key_reused');
    expect(await wordsUsed(app, key)).toBe(words);
  });

  it('keeps keys apart per API key: another key with the same Idempotency-Key runs and is charged', async () => {
    const { app, newKey } = makeApp();
    const [a, b] = [(await newKey()).key, (await newKey()).key];
    const headers = { 'idempotency-key': 'shared-id' };
    const first = await call(app, '/v1/detect', { key: a, json: { text: PROSE }, headers });
    const second = await call(app, '/v1/detect', { key: b, json: { text: PROSE }, headers });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(await wordsUsed(app, b)).toBe((await first.json()).words);
    // The same key sent as Authorization: Bearer is the same client.
    const bearer = await call(app, '/v1/detect', { json: { text: PROSE }, headers: { ...headers, authorization: `Bearer ${a}` } });
    expect(bearer.headers.get('idempotent-replayed')).toBe('true');
  });

  it('refuses a malformed key with 400 invalid_idempotency_key', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey();
    for (const bad of ['', 'x'.repeat(256), 'has space', 'ñandú']) {
      const response = await call(app, '/v1/detect', { key, json: { text: PROSE }, headers: { 'idempotency-key': bad } });
      expect([bad, response.status]).toEqual([bad, 400]);
      expect((await response.json()).error.code).toBe('invalid_idempotency_key');
    }
    expect(await wordsUsed(app, key)).toBe(0);
  });

  it('keeps only successful answers: a failed request runs again on retry', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey();
    const headers = { 'idempotency-key': 'short-1' };
    for (let i = 0; i < 2; i++) {
      const response = await call(app, '/v1/detect', { key, json: { text: 'Too short.' }, headers });
      expect(response.status).toBe(400);
      expect(response.headers.get('idempotent-replayed')).toBeNull();
    }
    // Released: the key may now carry a (first) successful request.
    expect((await call(app, '/v1/detect', { key, json: { text: PROSE }, headers })).status).toBe(200);
  });

  it('charges 6 concurrent duplicates once: one runs, the others wait for its answer', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey();
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => call(app, '/v1/detect', { key, json: { text: PROSE }, headers: { 'idempotency-key': 'burst' } })),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const bodies = await Promise.all(responses.map((r) => r.text()));
    expect(new Set(bodies).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(5);
    expect(await wordsUsed(app, key)).toBe(JSON.parse(bodies[0]).words);
  });

  it('answers 409 idempotency_request_in_progress (Retry-After) when the first is still running past the wait', async () => {
    const slow: Detector = {
      countWords: detector().countWords,
      profileSample: detector().profileSample,
      analyze(text, options) {
        const until = performance.now() + 400;
        while (performance.now() < until) {
          // A long analysis: the event loop is busy, as with a 1 MiB text.
        }
        return detector().analyze(text, options);
      },
    };
    const store = freshStore();
    const config = loadConfig({ DATABASE_PATH: ':memory:', BOOTSTRAP_KEY: '0' });
    const app = createApp({ config, store, detector: slow, idempotencyWaitMs: 50 });
    const { key } = await keyOn(store);
    const headers = { 'idempotency-key': 'slow-1' };
    const first = call(app, '/v1/detect', { key, json: { text: PROSE }, headers });
    await Bun.sleep(5);
    const second = await call(app, '/v1/detect', { key, json: { text: PROSE }, headers });
    // The analysis blocks the loop, so the duplicate's wait may end after it: either 409, or the replay.
    const answer = await (await first).json();
    if (second.status === 409) {
      expect((await second.json()).error.code).toBe('idempotency_request_in_progress');
      expect(second.headers.get('retry-after')).toBe('1');
    } else expect(await second.json()).toEqual(answer);
    // A pending record met while waiting: made certain with a record held directly in the store.
    const held = await call(app, '/v1/detect', { key, json: { text: PROSE }, headers: { 'idempotency-key': 'held' } });
    expect(held.status).toBe(200);
    await store.db.$client.exec("UPDATE idempotency_records SET state = 'pending', answer = NULL");
    const blocked = await call(app, '/v1/detect', { key, json: { text: PROSE }, headers: { 'idempotency-key': 'held' } });
    expect(blocked.status).toBe(409);
    expect((await blocked.json()).error.code).toBe('idempotency_request_in_progress');
    expect(blocked.headers.get('retry-after')).toBe('1');
  });

  it('lets a retry take over a record whose first request died mid-way (its lease ran out)', async () => {
    const { app, store, newKey } = makeApp();
    const { key, id: keyId } = await newKey();
    const body = JSON.stringify({ text: PROSE });
    // What a process that crashed after claiming leaves behind: a pending record past its lease.
    const id = await recordId(key, 'crashed-1');
    const keys = await recordKeys(jsonFingerprint(body), key, id, keyId);
    const now = Date.now();
    expect(
      await store.idempotency.claim({
        id,
        bodyCheck: keys.bodyCheck,
        now: now - 120_000,
        lockedUntil: now - 60_000,
        expiresAt: now + IDEMPOTENCY_TTL_MS,
      }),
    ).toBe('claimed');
    const retry = await call(app, '/v1/detect', {
      key,
      body,
      headers: { 'content-type': 'application/json', 'idempotency-key': 'crashed-1' },
    });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const words = (await retry.json()).words;
    expect(await wordsUsed(app, key)).toBe(words);
    expect(await store.idempotency.read(id, Date.now())).toMatchObject({ state: 'done' });
  });

  it('replays a batch by its files, not its bytes (a retry has a new multipart boundary), charged once', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey();
    const files: Array<[string, string]> = [
      ['a.txt', PROSE],
      ['b.md', `# Notes\n\n${PROSE}`],
    ];
    const headers = { 'idempotency-key': 'batch-1' };
    const first = await call(app, '/v1/detect', { key, body: form(files, { sensitivity: 'balanced' }), headers });
    expect(first.status).toBe(200);
    const stream = await first.text();
    const lines = stream
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toEqual({ type: 'complete', total: 2 });
    const words = lines.filter((l) => l.type === 'result').reduce((sum, l) => sum + l.words, 0);
    const again = await call(app, '/v1/detect', { key, body: form(files, { sensitivity: 'balanced' }), headers });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(await again.text()).toBe(stream);
    expect(await wordsUsed(app, key)).toBe(words);
    // Another file under the same key is another request.
    const changed = await call(app, '/v1/detect', { key, body: form([files[0]], { sensitivity: 'balanced' }), headers });
    expect(changed.status).toBe(422);
    expect((await changed.json()).error.code).toBe('idempotency_key_reused');
  });

  it('writes nothing readable of the text to the database, its WAL or the log', async () => {
    const token = `Zephyrine${crypto.randomUUID().replaceAll('-', '')}`;
    const sentence = `Moreover, the ${token} orchard of brass pelicans whispered across the granary at dawn.`;
    const text = `${PROSE} ${sentence}`;
    const path = join(dir, 'privacy.sqlite');
    const store = freshStore(path);
    const logs: string[] = [];
    const config = loadConfig({ DATABASE_PATH: path, BOOTSTRAP_KEY: '0' });
    const app = createApp({ config, store, detector: detector(), logger: createJsonLogger((line) => logs.push(line)) });
    const { key } = await keyOn(store);
    const headers = { 'idempotency-key': 'private-1' };
    const first = await call(app, '/v1/detect', { key, json: { text }, headers });
    const answer = await first.json();
    // The answer itself quotes the text (annotations, bullets): exactly what the record must not reveal.
    expect(JSON.stringify(answer)).toContain('fast-paced world');
    expect((await call(app, '/v1/detect', { key, json: { text }, headers })).headers.get('idempotent-replayed')).toBe('true');
    const batch = await call(app, '/v1/detect', { key, body: form([['secret.txt', text]]), headers: { 'idempotency-key': 'private-2' } });
    await batch.text();
    await store.usage.flush();
    const rows = store.db.$client.query('SELECT * FROM idempotency_records').all() as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.state === 'done' && /^[0-9a-f]{64}$/.test(String(row.id)))).toBe(true);
    const disk = [path, `${path}-wal`, `${path}-shm`]
      .filter((p) => existsSync(p))
      .map((p) => readFileSync(p).toString('latin1'))
      .join('\n');
    expect(disk.length).toBeGreaterThan(0);
    const utf16 = (s: string) => Buffer.from(s, 'utf16le').toString('latin1');
    for (const needle of [token, 'pelicans', 'granary', 'orchard of brass', 'fast-paced world', 'private-1', 'private-2']) {
      expect([needle, disk.includes(needle)]).toEqual([needle, false]);
      expect([needle, disk.includes(utf16(needle))]).toEqual([needle, false]);
      expect([needle, logs.join('').includes(needle)]).toEqual([needle, false]);
    }
    await store.close();
  });
});
