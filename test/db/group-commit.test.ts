import { describe, expect, it } from 'bun:test';
import type { ApiKeyRow } from '../../src/db/schema';
import { createKey, findActiveKey } from '../../src/modules/keys';
import { chargeWords, chargeWordsGrouped, getQuotaState } from '../../src/modules/quota';
import { freshDb } from '../http/helpers';

function freeKey() {
  const db = freshDb();
  const created = createKey(db, { plan: 'free' }); // 10,000 words a month
  return { db, key: findActiveKey(db, created.key)! };
}

describe('grouped charges (one commit per event-loop turn)', () => {
  it('decides the charges of one turn in arrival order, each against what the earlier ones left', async () => {
    const { db, key } = freeKey();
    chargeWords(db, key, 9_900); // 100 words left
    const results = await Promise.all([40, 40, 40, 20].map((words) => chargeWordsGrouped(db, key, words)));
    expect(results.map((r) => r.ok)).toEqual([true, true, false, true]);
    expect(results.map((r) => r.state.remaining)).toEqual([60, 20, 20, 0]);
    expect(getQuotaState(db, key).used).toBe(10_000);
  });

  it('answers only once the charges are committed', async () => {
    const { db, key } = freeKey();
    const pending = chargeWordsGrouped(db, key, 25);
    expect(getQuotaState(db, key).used).toBe(0); // not before the end of the turn
    expect((await pending).ok).toBe(true);
    expect(getQuotaState(db, key).used).toBe(25);
  });

  it('rolls the whole group back and rejects every charge of it when one statement fails', async () => {
    const { db, key } = freeKey();
    const missing: ApiKeyRow = { ...key, id: 987_654 }; // no such key: the foreign key check fails
    const outcomes = await Promise.allSettled([chargeWordsGrouped(db, key, 30), chargeWordsGrouped(db, missing, 30)]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(getQuotaState(db, key).used).toBe(0);
    // The next turn starts a new group.
    expect((await chargeWordsGrouped(db, key, 30)).ok).toBe(true);
  });
});
