/**
 * `bun run calibrate --key-id` (issue 34): a profile made from an operator's archive is stored for a
 * key in the configured database, is what the API then lists for that key, and is not charged; an
 * unknown key is refused before any text is read.
 */
import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { humanTexts } from '../../scripts/lib/human-texts';
import { listCalibrations } from '../../src/modules/calibrations/service';
import { openSqliteStore } from '../../src/store/sqlite';
import { runCommand } from '../fixtures/server-process';
import { SUITE_TIMEOUT_MS } from '../timeout';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
const dir = mkdtempSync(join(tmpdir(), 'calibrate-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { DATABASE_PATH: join(dir, 'db.sqlite') };

describe('calibrate --key-id', () => {
  it('stores the profile for the key, uncharged, where the API lists it', async () => {
    const created = runCommand(['bun', 'src/main.ts', 'keys', 'create', '--plan', 'free'], ROOT, env);
    expect(created.code).toBe(0);
    const prefix = created.out.trim().split('\n').at(-1)!.slice(0, 11);
    const jsonl = humanTexts(70, 8)
      .map((text) => JSON.stringify({ text }))
      .join('\n');
    const run = runCommand(['bun', 'src/main.ts', 'calibrate', '--key-id', prefix, '--name', 'Archive 2019'], ROOT, env, jsonl);
    expect([run.code, run.err]).toEqual([0, '']);
    const summary = JSON.parse(run.out);
    expect(summary).toMatchObject({ name: 'Archive 2019', inputs: { read: 70, usable: 70 } });
    expect(summary.id).toMatch(/^cal_[0-9A-Za-z]{22}$/);
    const store = openSqliteStore(env.DATABASE_PATH, { timeoutMs: 3000 });
    try {
      const key = (await store.keys.list())[0];
      const list = await listCalibrations(store.calibrations, key, summary.modelVersion);
      expect(list.calibrations.map((c) => [c.id, c.name, c.stale, c.languages.en?.texts])).toEqual([
        [summary.id, 'Archive 2019', false, 70],
      ]);
      expect(await store.quota.read(key.id, new Date().toISOString().slice(0, 7), true)).toEqual({ wordsUsed: 0, calls: 0 });
    } finally {
      await store.close();
    }
  });

  it('refuses an unknown key before reading any text', () => {
    const run = runCommand(['bun', 'src/main.ts', 'calibrate', '--key-id', '9999', '--name', 'x'], ROOT, env, 'not json at all');
    expect(run.code).toBe(2);
    expect(run.err).toContain('no active API key "9999"');
    expect(run.out).toBe('');
  });
});
