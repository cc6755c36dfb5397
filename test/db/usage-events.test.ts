import { afterEach, describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDatabase, openDatabase } from '../../src/db/client';
import { migrateDatabase } from '../../src/db/migrate';
import { createKey, findActiveKey, keyUsage } from '../../src/modules/keys';
import { FLUSH_DELAY_MS, flushUsage, recordUsage } from '../../src/modules/quota';
import { FLUSH_MAX_EVENTS } from '../../src/modules/quota/events';
import { freshDb } from '../http/helpers';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function event(keyId: number, words: number) {
  return { keyId, mode: 'single' as const, words, score: 40, status: 200, errorCode: null, durationMs: 0.4, createdAt: Date.now() };
}

function storedWords(db: ReturnType<typeof freshDb>): number[] {
  return (db.$client.query('SELECT words FROM usage_events ORDER BY id').all() as { words: number }[]).map((r) => r.words);
}

describe('usage events are written behind, in order, and never lost on a clean close', () => {
  it('writes queued events after FLUSH_DELAY_MS without anyone asking', async () => {
    const db = freshDb();
    const key = createKey(db, { plan: 'free' });
    recordUsage(db, event(key.id, 21));
    recordUsage(db, event(key.id, 22));
    expect(storedWords(db)).toEqual([]);
    await Bun.sleep(FLUSH_DELAY_MS * 3);
    expect(storedWords(db)).toEqual([21, 22]);
  });

  it('writes a full buffer at once', () => {
    const db = freshDb();
    const key = createKey(db, { plan: 'free' });
    for (let i = 0; i < FLUSH_MAX_EVENTS; i++) recordUsage(db, event(key.id, i));
    expect(storedWords(db).length).toBe(FLUSH_MAX_EVENTS);
  });

  it('flushes before an in-process usage report reads the table', () => {
    const db = freshDb();
    const created = createKey(db, { plan: 'free' });
    for (let i = 0; i < 3; i++) recordUsage(db, event(created.id, 30));
    expect(keyUsage(db, findActiveKey(db, created.key)!).requests).toBe(3);
  });

  it('flushes on closeDatabase, so a graceful shutdown keeps every event', () => {
    const dir = mkdtempSync(join(tmpdir(), 'usage-events-'));
    dirs.push(dir);
    const path = join(dir, 'db.sqlite');
    const db = openDatabase(path);
    migrateDatabase(db);
    const key = createKey(db, { plan: 'free' });
    recordUsage(db, event(key.id, 41));
    closeDatabase(db);
    const reopened = openDatabase(path);
    expect(storedWords(reopened)).toEqual([41]);
    flushUsage(reopened); // nothing queued: a no-op
    closeDatabase(reopened);
  });
});
