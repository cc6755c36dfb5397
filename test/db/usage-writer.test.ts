import { describe, expect, it } from 'bun:test';
import { openDatabase, type Db } from '../../src/db/client';
import { migrateDatabase } from '../../src/db/migrate';
import type { NewUsageEvent } from '../../src/db/schema';
import { createKey } from '../../src/modules/keys';
import { flushUsage, MAX_PENDING_EVENTS, queueUsage, usageRequestStarted } from '../../src/modules/quota/events';
import { call, makeApp, PROSE } from '../http/helpers';

function setup(): { db: Db; event: (status: number) => NewUsageEvent } {
  const db = openDatabase(':memory:');
  migrateDatabase(db);
  const keyId = createKey(db, { plan: 'free' }).id;
  return { db, event: (status) => ({ keyId, mode: 'single', words: 1, score: null, status, errorCode: null, durationMs: 1, createdAt: 0 }) };
}

const statuses = (db: Db) => (db.$client.query('SELECT status FROM usage_events ORDER BY id').all() as { status: number }[]).map((r) => r.status);
const noError = () => {
  throw new Error('unexpected usage write failure');
};

describe('usage events (write-behind under concurrency)', () => {
  it('writes the event of a request that ends alone before returning', () => {
    const { db, event } = setup();
    usageRequestStarted(db);
    queueUsage(db, event(200), noError);
    expect(statuses(db)).toEqual([200]);
  });

  it('batches events while other requests are open, and writes them on the next turn', async () => {
    const { db, event } = setup();
    for (let i = 0; i < 3; i++) usageRequestStarted(db);
    queueUsage(db, event(200), noError);
    queueUsage(db, event(429), noError);
    expect(statuses(db)).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(statuses(db)).toEqual([200, 429]);
    // The last open request ends alone: written at once.
    queueUsage(db, event(400), noError);
    expect(statuses(db)).toEqual([200, 429, 400]);
  });

  it('never holds more than MAX_PENDING_EVENTS, and flushUsage writes what is pending', () => {
    const { db, event } = setup();
    for (let i = 0; i <= MAX_PENDING_EVENTS + 1; i++) usageRequestStarted(db);
    for (let i = 0; i < MAX_PENDING_EVENTS; i++) queueUsage(db, event(200), noError);
    expect(statuses(db)).toHaveLength(MAX_PENDING_EVENTS);
    queueUsage(db, event(201), noError);
    expect(statuses(db)).toHaveLength(MAX_PENDING_EVENTS);
    flushUsage(db);
    expect(statuses(db).at(-1)).toBe(201);
  });

  it('reports a failed write with the number of events lost instead of throwing', () => {
    const { db, event } = setup();
    usageRequestStarted(db);
    db.$client.exec('DROP TABLE usage_events');
    const failures: number[] = [];
    queueUsage(db, event(200), (_error, lost) => failures.push(lost));
    expect(failures).toEqual([1]);
  });

  it('has every event of parallel HTTP requests on disk once they have all been answered', async () => {
    const { app, db, newKey } = makeApp();
    const { key } = newKey('enterprise');
    const responses = await Promise.all(Array.from({ length: 12 }, () => call(app, '/api/detect', { key, json: { text: PROSE } })));
    expect(responses.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(statuses(db)).toEqual(Array(12).fill(200));
  });
});
