/**
 * The store contract: what every implementation of KeyStore, QuotaStore and UsageSink must do,
 * written once and run against each dialect (sqlite.test.ts, postgres.test.ts). Races use several
 * store instances on one database, as several processes or machines would.
 */
import { afterAll, describe, expect, it } from 'bun:test';
import { chargeWords, createHolds, getQuotaState, refundWords, SWEPT_KEEP_MS } from '../../src/modules/quota';
import { createKey, findActiveKey, resolveKey } from '../../src/modules/keys';
import type { PlanId } from '../../src/plans';
import { CALIBRATION_CACHE_TTL_MS } from '../../src/store/calibration-cache';
import { smallProfile } from '../fixtures/profile-json';
import { FLUSH_DELAY_MS } from '../../src/store/usage-buffer';
import type { ApiKey, RateTake, Store, UsageEvent } from '../../src/store/types';

/** A fresh, migrated database, and how to open more store instances on it. */
export interface ContractDatabase {
  open(): Promise<Store>;
}

/** How the suite gets databases of one dialect. */
export interface ContractTarget {
  dialect: string;
  fresh(): Promise<ContractDatabase>;
}

const NOV = Date.UTC(2026, 10, 21, 12, 0, 0);
const DEC = Date.UTC(2026, 11, 1, 0, 0, 0);
const NOV_PERIOD = '2026-11';

function event(keyId: number, words: number): UsageEvent {
  return { keyId, mode: 'single', words, score: 40, status: 200, errorCode: null, durationMs: 0.4, createdAt: Date.now() };
}

/** Registers the contract tests; `target` null skips them (with the reason already printed). */
export function storeContract(target: ContractTarget | null): void {
  const opened: Store[] = [];
  afterAll(async () => {
    for (const store of opened.splice(0)) await store.close();
  });
  const fresh = async () => {
    const database = await target!.fresh();
    const open = async () => {
      const store = await database.open();
      opened.push(store);
      return store;
    };
    return { first: await open(), open };
  };
  /** Closes stores a test is done with: PostgreSQL counts every pool's connections against one cluster's limit. */
  const closeNow = async (...stores: Store[]) => {
    for (const store of stores) {
      opened.splice(opened.indexOf(store), 1);
      await store.close();
    }
  };
  const keyOf = async (store: Store, plan: PlanId = 'free'): Promise<ApiKey> => {
    const created = await createKey(store.keys, { plan });
    return (await findActiveKey(store.keys, created.key))!;
  };

  describe.if(target !== null)(`store contract: ${target?.dialect ?? 'skipped'}`, () => {
    describe('keys', () => {
      it('stores a key and finds it by hash while active; revocation is idempotent and keeps its time', async () => {
        const { first: store } = await fresh();
        const created = await createKey(store.keys, { plan: 'premium', name: 'Editorial' }, 1_700_000_000_000);
        const row = await findActiveKey(store.keys, created.key);
        expect(row).toMatchObject({ id: created.id, name: 'Editorial', plan: 'premium', prefix: created.prefix, status: 'active' });
        expect(row!.createdAt).toBe(1_700_000_000_000);
        expect(row!.revokedAt).toBeNull();
        expect(await store.keys.byId(created.id)).toEqual(row);
        expect(await store.keys.byHash(row!.keyHash)).toEqual(row);
        const revoked = await store.keys.revoke(created.id, 1_700_000_000_500);
        expect(revoked).toMatchObject({ status: 'revoked', revokedAt: 1_700_000_000_500 });
        expect(await store.keys.revoke(created.id, 1_700_000_009_999)).toMatchObject({ revokedAt: 1_700_000_000_500 });
        expect(await store.keys.findActiveByHash(row!.keyHash)).toBeNull();
        expect(await store.keys.revoke(987_654, 1)).toBeNull();
      });

      it('lists newest first, counts, and looks prefixes up by their start', async () => {
        const { first: store } = await fresh();
        expect(await store.keys.count()).toBe(0);
        const made = [];
        for (let i = 0; i < 12; i++) made.push(await createKey(store.keys, { plan: 'free' }));
        expect(await store.keys.count()).toBe(12);
        expect((await store.keys.list()).map((k) => k.id)).toEqual(made.map((k) => k.id).reverse());
        expect((await store.keys.byPrefixStart(made[3].prefix, 2)).map((k) => k.id)).toEqual([made[3].id]);
        expect((await store.keys.byPrefixStart('ak_', 2)).length).toBe(2);
        expect(await resolveKey(store.keys, made[7].prefix)).toMatchObject({ id: made[7].id });
      });
    });

    describe('quota', () => {
      it('charges words and a call, and refuses a charge past the month without charging anything', async () => {
        const { first: store } = await fresh();
        const key = await keyOf(store);
        expect(await chargeWords(store.quota, key, 9_990, NOV)).toMatchObject({ ok: true, state: { used: 9_990, remaining: 10 } });
        expect(await chargeWords(store.quota, key, 11, NOV)).toMatchObject({ ok: false, code: 'quota_exceeded', state: { used: 9_990 } });
        expect(await chargeWords(store.quota, key, 10_001, DEC)).toMatchObject({ ok: false, code: 'quota_exceeded' });
        expect((await chargeWords(store.quota, key, 10, NOV)).state.remaining).toBe(0);
        expect(await store.quota.read(key.id, NOV_PERIOD, true)).toEqual({ wordsUsed: 10_000, calls: 2 });
        expect(await chargeWords(store.quota, key, 500, DEC)).toMatchObject({ ok: true, state: { used: 500 } });
        // Calls of one month (GET /v1/usage), not the lifetime sum; a month with none is 0.
        expect(await store.quota.periodCalls(key.id, NOV_PERIOD)).toBe(2);
        expect(await store.quota.periodCalls(key.id, '2026-12')).toBe(1);
        expect(await store.quota.periodCalls(key.id, '2027-01')).toBe(0);
      });

      it('decides the charges of one moment in arrival order, each against what the earlier ones left', async () => {
        const { first: store } = await fresh();
        const key = await keyOf(store);
        await chargeWords(store.quota, key, 9_900, NOV); // 100 words left
        const results = await Promise.all([40, 40, 40, 20].map((words) => chargeWords(store.quota, key, words, NOV)));
        expect(results.map((r) => r.ok)).toEqual([true, true, false, true]);
        // A refused charge reports the month as it is when it is answered: after the whole group.
        expect(results.map((r) => r.state.remaining)).toEqual([60, 20, 0, 0]);
        expect((await getQuotaState(store.quota, key, NOV)).used).toBe(10_000);
      });

      it('never overspends when three instances race one key: charged = sum of the successes', async () => {
        const { first, open } = await fresh();
        const instances = [first, await open(), await open()];
        const key = await keyOf(first, 'essential'); // 60,000 words
        const sizes = Array.from({ length: 150 }, (_, i) => 300 + ((i * 97) % 700)); // ~97,000 words asked
        const outcomes = await Promise.all(
          sizes.map((words, i) =>
            instances[i % 3].quota.charge({ keyId: key.id, period: NOV_PERIOD, words, wordLimit: 60_000, callLimit: null }),
          ),
        );
        const charged = sizes.reduce((sum, words, i) => sum + (outcomes[i] ? words : 0), 0);
        const { wordsUsed } = await first.quota.read(key.id, NOV_PERIOD, false);
        expect(wordsUsed).toBe(charged);
        expect(wordsUsed).toBeLessThanOrEqual(60_000);
        expect(wordsUsed).toBeGreaterThan(60_000 - 1_000);
        expect(outcomes.filter((o) => o === null).length).toBeGreaterThan(20);
      });

      it('grants exactly the lifetime call cap when three instances race a capped key across months', async () => {
        const { first, open } = await fresh();
        const instances = [first, await open(), await open()];
        // Several rounds on fresh keys: a race that slips through now and then is caught.
        for (let round = 0; round < 5; round++) {
          const key = await keyOf(first, 'trial');
          // 4 calls already used last month; the cap is 10: 6 more, whoever asks.
          for (let i = 0; i < 4; i++)
            await first.quota.charge({ keyId: key.id, period: '2026-10', words: 1, wordLimit: 10_000, callLimit: 10 });
          const outcomes = await Promise.all(
            Array.from({ length: 30 }, (_, i) =>
              instances[i % 3].quota.charge({ keyId: key.id, period: NOV_PERIOD, words: 2, wordLimit: 10_000, callLimit: 10 }),
            ),
          );
          expect(outcomes.filter((o) => o !== null).length).toBe(6);
          expect(Math.max(...outcomes.map((o) => o?.calls ?? 0))).toBe(10);
          expect(await first.quota.read(key.id, NOV_PERIOD, true)).toEqual({ wordsUsed: 12, calls: 10 });
        }
      });

      it('caps a trial key at 500 calls through the quota module, with the right code', async () => {
        const { first: store } = await fresh();
        const key = await keyOf(store, 'trial');
        await Promise.all(Array.from({ length: 499 }, () => chargeWords(store.quota, key, 1, NOV)));
        expect(await chargeWords(store.quota, key, 1, DEC)).toMatchObject({ ok: true, state: { callsUsed: 500, callLimit: 500 } });
        expect(await chargeWords(store.quota, key, 1, DEC)).toMatchObject({ ok: false, code: 'trial_calls_exhausted' });
      });

      it('refunds words and calls of the month of the charge, never below zero', async () => {
        const { first: store } = await fresh();
        const key = await keyOf(store, 'trial');
        await chargeWords(store.quota, key, 300, NOV);
        await refundWords(store.quota, key, 120, NOV, 0);
        expect(await getQuotaState(store.quota, key, NOV)).toMatchObject({ used: 180, callsUsed: 1 });
        await refundWords(store.quota, key, 1_000, NOV, 1);
        expect(await getQuotaState(store.quota, key, NOV)).toMatchObject({ used: 0, callsUsed: 0 });
        await refundWords(store.quota, key, 5, DEC, 1); // no row that month: nothing happens
        expect(await store.quota.read(key.id, '2026-12', true)).toEqual({ wordsUsed: 0, calls: 0 });
      });
    });

    describe('usage events', () => {
      it('writes queued events behind, without anyone asking, and counts them', async () => {
        const { first, open } = await fresh();
        const other = await open();
        const key = await keyOf(first);
        first.usage.record(event(key.id, 21));
        first.usage.record(event(key.id, 22));
        // Another instance sees nothing until the writer's timer fires.
        expect(await other.usage.countForKey(key.id)).toBe(0);
        await Bun.sleep(FLUSH_DELAY_MS * 4);
        expect(await other.usage.countForKey(key.id)).toBe(2);
      });

      it('folds events past the retention period into monthly totals once, however many compact at once, and keeps counting them (issue 33)', async () => {
        const { first, open } = await fresh();
        const other = await open();
        const key = await keyOf(first);
        const at = (createdAt: number, words: number): UsageEvent => ({ ...event(key.id, words), createdAt });
        const OCT = Date.UTC(2026, 9, 15);
        const HOUR = 3_600_000;
        for (let i = 0; i < 30; i++) first.usage.record(at(OCT + i, 10));
        for (let i = 0; i < 20; i++) first.usage.record(at(NOV + i, 5));
        first.usage.record(at(NOV + 10 * HOUR, 1));
        await first.usage.flush();
        expect(await first.usage.countForKey(key.id)).toBe(51);
        // Two processes (or instances) compacting at the same moment: each event folded once.
        const [a, b] = await Promise.all([first.usage.compact(NOV + HOUR), other.usage.compact(NOV + HOUR)]);
        expect(a + b).toBe(50);
        expect(await first.usage.compact(NOV + HOUR)).toBe(0);
        expect(await other.usage.countForKey(key.id)).toBe(51);
        expect(await first.usage.compact(NOV + 11 * HOUR)).toBe(1);
        expect(await first.usage.countForKey(key.id)).toBe(51);
        await closeNow(first, other);
      });

      it('writes everything queued on close', async () => {
        const { first, open } = await fresh();
        const key = await keyOf(first);
        for (let i = 0; i < 300; i++) first.usage.record(event(key.id, i));
        await first.close();
        expect(await (await open()).usage.countForKey(key.id)).toBe(300);
      });
    });

    describe('rate buckets', () => {
      const take = (keyId: number, now: number, over: Partial<RateTake> = {}): RateTake => ({
        keyId,
        bucket: 'requests',
        limit: 60,
        windowMs: 60_000,
        cost: 1,
        force: false,
        now,
        ...over,
      });

      it('grants exactly the burst when three instances race one key, and nothing more until a step has passed', async () => {
        const { first, open } = await fresh();
        const instances = [first, await open(), await open()];
        const key = await keyOf(first);
        // One clock for all: no event comes back during the race.
        const states = await Promise.all(Array.from({ length: 150 }, (_, i) => instances[i % 3].rates.take(take(key.id, NOV))));
        expect(states.reduce((sum, s) => sum + s.granted, 0)).toBe(60);
        expect(Math.max(...states.map((s) => s.tatMs))).toBe(NOV + 60_000);
        expect((await first.rates.take(take(key.id, NOV + 999))).granted).toBe(0);
        expect(await first.rates.take(take(key.id, NOV + 1_000))).toEqual({ granted: 1, tatMs: NOV + 61_000 });
        // Another bucket of the key, and another key, are apart.
        expect((await first.rates.take(take(key.id, NOV, { bucket: 'extract' }))).granted).toBe(1);
        expect((await first.rates.take(take(key.id + 1, NOV))).granted).toBe(1);
        // PostgreSQL allows 100 connections: the suite's later stores need them back.
        for (const store of instances) await store.close();
      });

      it('grants part of a larger cost, records forced events past the limit, and reads with a cost of 0', async () => {
        const { first: store } = await fresh();
        const key = await keyOf(store);
        expect(await store.rates.take(take(key.id, NOV, { limit: 10, cost: 7 }))).toEqual({ granted: 7, tatMs: NOV + 42_000 });
        expect(await store.rates.take(take(key.id, NOV, { limit: 10, cost: 7 }))).toEqual({ granted: 3, tatMs: NOV + 60_000 });
        expect(await store.rates.take(take(key.id, NOV, { limit: 10, cost: 2, force: true }))).toEqual({ granted: 2, tatMs: NOV + 72_000 });
        expect(await store.rates.take(take(key.id, NOV + 1_000, { limit: 10, cost: 0, force: true }))).toEqual({
          granted: 0,
          tatMs: NOV + 72_000,
        });
        await store.close();
      });
    });

    describe('idempotency records', () => {
      const H = 60 * 60 * 1000;
      const claimAt = (id: string, bodyCheck: string, now: number, leaseMs = 60_000, keyId = 1) => ({
        id,
        bodyCheck,
        now,
        lockedUntil: now + leaseMs,
        expiresAt: now + 24 * H,
        keyId,
      });

      it("evicts the oldest answered records of one API key beyond a bound, and no other key's (issue 33)", async () => {
        const { first: store } = await fresh();
        for (let i = 0; i < 6; i++) {
          await store.idempotency.claim(claimAt(`evict-${i}`, 'x', NOV + i, 60_000, 7));
          if (i < 5) await store.idempotency.complete(`evict-${i}`, 'YQ==');
        }
        await store.idempotency.claim(claimAt('evict-other', 'x', NOV, 60_000, 8));
        await store.idempotency.complete('evict-other', 'YQ==');
        expect(await store.idempotency.evict(7, 3)).toBe(2);
        const left = await Promise.all(
          [0, 1, 2, 3, 4, 5].map(async (i) => (await store.idempotency.read(`evict-${i}`, NOV))?.state ?? null),
        );
        // The two oldest answers went; the pending one (still running) stays.
        expect(left).toEqual([null, null, 'done', 'done', 'done', 'pending']);
        expect(await store.idempotency.read('evict-other', NOV)).toMatchObject({ state: 'done' });
        expect(await store.idempotency.evict(7, 3)).toBe(0);
        await closeNow(store);
      });

      it('lets exactly one of many concurrent claimants, on several instances, hold a record', async () => {
        const { first, open } = await fresh();
        const stores = [first, await open(), await open()];
        const claims = await Promise.all(
          Array.from({ length: 12 }, (_, i) => stores[i % 3].idempotency.claim(claimAt('row-a', 'check-1', NOV))),
        );
        expect(claims.filter((c) => c === 'claimed')).toHaveLength(1);
        for (const other of claims.filter((c) => c !== 'claimed'))
          expect(other).toMatchObject({ state: 'pending', bodyCheck: 'check-1', answer: null });
        await first.idempotency.complete('row-a', 'c2VhbGVk');
        expect(await stores[2].idempotency.claim(claimAt('row-a', 'check-1', NOV + 1))).toMatchObject({
          state: 'done',
          answer: 'c2VhbGVk',
        });
        expect(await stores[1].idempotency.read('row-a', NOV + 2)).toMatchObject({ state: 'done', answer: 'c2VhbGVk' });
      });

      it('takes over an abandoned pending record only with the same body, and any record once expired', async () => {
        const { first: store } = await fresh();
        expect(await store.idempotency.claim(claimAt('row-b', 'check-1', NOV, 1_000))).toBe('claimed');
        // Still held: nobody else gets it.
        expect(await store.idempotency.claim(claimAt('row-b', 'check-1', NOV + 500))).toMatchObject({ state: 'pending' });
        // Abandoned (its holder died): the same body takes it over, another body does not.
        expect(await store.idempotency.claim(claimAt('row-b', 'check-2', NOV + 2_000))).toMatchObject({ bodyCheck: 'check-1' });
        expect(await store.idempotency.claim(claimAt('row-b', 'check-1', NOV + 2_000))).toBe('claimed');
        await store.idempotency.complete('row-b', 'YW5zd2Vy');
        // A done record is kept 24 hours, then ignored, taken over by anyone and purged.
        expect(await store.idempotency.claim(claimAt('row-b', 'check-2', NOV + 23 * H))).toMatchObject({ state: 'done' });
        expect(await store.idempotency.read('row-b', NOV + 2_000 + 24 * H)).toBeNull();
        expect(await store.idempotency.claim(claimAt('row-b', 'check-2', NOV + 2_000 + 24 * H))).toBe('claimed');
      });

      it('releases a pending record (a failed request) but never a done one, and purges what expired', async () => {
        const { first: store } = await fresh();
        await store.idempotency.claim(claimAt('row-c', 'x', NOV));
        await store.idempotency.release('row-c');
        expect(await store.idempotency.read('row-c', NOV)).toBeNull();
        await store.idempotency.claim(claimAt('row-d', 'x', NOV));
        await store.idempotency.complete('row-d', 'ZG9uZQ==');
        await store.idempotency.release('row-d');
        expect(await store.idempotency.read('row-d', NOV)).toMatchObject({ state: 'done' });
        await store.idempotency.claim(claimAt('row-e', 'x', NOV + 10 * H));
        expect(await store.idempotency.purge(NOV + 24 * H)).toBe(1);
        expect(await store.idempotency.read('row-d', NOV + 11 * H)).toBeNull();
        expect(await store.idempotency.read('row-e', NOV + 11 * H)).toMatchObject({ state: 'pending' });
        expect(await store.idempotency.purge(NOV + 24 * H)).toBe(0);
      });
    });

    describe('charge holds (issue 29)', () => {
      const holds = (store: Store) => createHolds({ quota: store.quota, ledger: store.ledger, onEvent: () => {}, background: false });
      const used = async (store: Store, key: ApiKey) => (await store.quota.read(key.id, NOV_PERIOD, false)).wordsUsed;
      // One database for these tests (each its own key and hold ids): PostgreSQL counts every pool's connections.
      let shared: Awaited<ReturnType<typeof fresh>> | undefined;
      const database = async () => (shared ??= await fresh());
      afterAll(async () => {
        await shared?.first.close();
      });

      it('gives back what was charged and not delivered when an attempt ends, and deletes an unkeyed hold', async () => {
        const { first: store } = await database();
        const key = await keyOf(store, 'essential');
        const charge = await holds(store).charge(key, 300, { now: NOV });
        if (!charge.ok) throw new Error('refused');
        expect(await charge.hold.deliver(120)).toBe('counted');
        await charge.hold.settle();
        expect(await used(store, key)).toBe(120);
        expect(await store.ledger.read(charge.hold.id)).toBeNull();
      });

      it('settles the holds of a process that died once their lease is over, once across instances, and fences it out', async () => {
        const { first, open } = await database();
        const others = [await open(), await open()];
        const key = await keyOf(first, 'essential');
        const leaseMs = 400;
        const dead = createHolds({ quota: first.quota, ledger: first.ledger, onEvent: () => {}, background: false, leaseMs });
        const charge = await dead.charge(key, 500, { now: NOV, id: 'crashed-1', keepUntil: NOV + 86_400_000 });
        if (!charge.ok) throw new Error('refused');
        expect(await charge.hold.deliver(200)).toBe('counted');
        // Within the lease (by the store's clock) nothing moves; past it, three instances sweep at once and give 300 words back once.
        expect(await others[0].ledger.sweep(SWEPT_KEEP_MS)).toBe(0);
        await Bun.sleep(leaseMs + 50);
        const back = await Promise.all([first, ...others].map((store) => store.ledger.sweep(SWEPT_KEEP_MS)));
        expect(back.reduce((a, b) => a + b, 0)).toBe(300);
        expect(await used(first, key)).toBe(200);
        expect(await first.ledger.read('crashed-1')).toMatchObject({ charged: 200, delivered: 200, attempt: '' });
        // Their connections back: PostgreSQL's are counted across the whole suite.
        await Promise.all(others.map((store) => store.close()));
        // The process comes back too late (it had stalled): it may deliver nothing more, and its own
        // settlement finds nothing left to give back.
        expect(await charge.hold.deliver(300)).toBe('hold_expired');
        await charge.hold.settle();
        expect(await used(first, key)).toBe(200);
        expect(await first.ledger.read('crashed-1')).toMatchObject({ charged: 200, delivered: 200 });
      });

      it('counts no delivery past the lease, even before anyone swept, and then gives the rest back', async () => {
        const { first: store } = await database();
        const key = await keyOf(store, 'essential');
        const leaseMs = 300;
        const stalled = createHolds({ quota: store.quota, ledger: store.ledger, onEvent: () => {}, background: false, leaseMs });
        const charge = await stalled.charge(key, 100, { now: NOV });
        if (!charge.ok) throw new Error('refused');
        await Bun.sleep(leaseMs + 50);
        expect(await charge.hold.deliver(100)).toBe('hold_expired');
        expect(await charge.hold.complete()).toBe('hold_expired');
        await charge.hold.settle();
        expect(await used(store, key)).toBe(0);
      });

      it('credits what a hold paid to its own body only', async () => {
        const { first: store } = await database();
        const key = await keyOf(store, 'essential');
        const keyed = { id: 'body-1', keepUntil: NOV + 86_400_000 };
        const first = await holds(store).charge(key, 400, { ...keyed, bodyCheck: 'body-a', now: NOV });
        if (!first.ok) throw new Error('refused');
        expect(await first.hold.deliver(150)).toBe('counted');
        await first.hold.settle();
        // Another body under the same key: refused, nothing charged, the hold untouched.
        await expect(holds(store).charge(key, 150, { ...keyed, bodyCheck: 'body-b', now: NOV + 1 })).rejects.toMatchObject({
          code: 'idempotency_key_reused',
        });
        expect(await used(store, key)).toBe(150);
        // The first body's retry still gets its credit.
        const retry = await holds(store).charge(key, 400, { ...keyed, bodyCheck: 'body-a', now: NOV + 2 });
        if (!retry.ok) throw new Error('refused');
        expect(await used(store, key)).toBe(400);
        expect(await retry.hold.complete()).toBe('counted');
      });

      it('charges a retry under the same hold only the words it has not paid', async () => {
        const { first: store } = await database();
        const key = await keyOf(store, 'essential');
        const keyed = { id: 'retry-1', keepUntil: NOV + 86_400_000 };
        // First attempt: cut short after 150 of 400 words (a hang-up).
        const first = await holds(store).charge(key, 400, { ...keyed, now: NOV });
        if (!first.ok) throw new Error('refused');
        expect(await first.hold.deliver(150)).toBe('counted');
        await first.hold.settle();
        expect(await used(store, key)).toBe(150);
        // Its retry pays the other 250 and delivers everything: 400 in all. Settled (not completed), the
        // keyed hold is kept until its key expires, for its body check (issue 44 item 8).
        const retry = await holds(store).charge(key, 400, { ...keyed, now: NOV + 1 });
        if (!retry.ok) throw new Error('refused');
        expect(await used(store, key)).toBe(400);
        expect(await retry.hold.deliver(400)).toBe('counted');
        await retry.hold.settle();
        expect(await used(store, key)).toBe(400);
        expect(await store.ledger.read('retry-1')).toMatchObject({ charged: 400, delivered: 400, attempt: '' });
        // A crash holding the whole charge: the retry on another process charges nothing more.
        const crashed = await holds(store).charge(key, 100, { id: 'retry-2', keepUntil: keyed.keepUntil, now: NOV });
        if (!crashed.ok) throw new Error('refused');
        const again = await holds(store).charge(key, 100, { id: 'retry-2', keepUntil: keyed.keepUntil, now: NOV + 5 });
        if (!again.ok) throw new Error('refused');
        expect(await used(store, key)).toBe(500);
        // The crashed attempt lost the hold to its retry: it may count nothing more.
        expect(await crashed.hold.deliver(100)).toBe('hold_expired');
        expect(await again.hold.deliver(100)).toBe('counted');
        await again.hold.settle();
        await crashed.hold.settle(); // the dead attempt's owner no longer holds it
        expect(await used(store, key)).toBe(500);
        // Both keyed holds, settled, go once their key expired (NOV + 1 day is past), with any an earlier test left.
        expect(await store.ledger.purge(Date.now())).toBeGreaterThanOrEqual(2);
        expect([await store.ledger.read('retry-1'), await store.ledger.read('retry-2')]).toEqual([null, null]);
      });

      it('keeps a swept hold readable for a while, so that an attempt that stalled reads what it counted (issue 40)', async () => {
        const { first: store } = await database();
        const key = await keyOf(store, 'essential');
        const leaseMs = 300;
        const stalled = createHolds({ quota: store.quota, ledger: store.ledger, onEvent: () => {}, background: false, leaseMs });
        // Unkeyed (kept 0 ms once settled): before, the sweep's settlement was purged at once.
        const charge = await stalled.charge(key, 500, { now: NOV });
        if (!charge.ok) throw new Error('refused');
        expect(await charge.hold.deliver(200)).toBe('counted');
        await Bun.sleep(leaseMs + 50);
        expect(await store.ledger.sweep(60_000)).toBe(300);
        expect(await store.ledger.purge(Date.now())).toBe(0);
        expect(await store.ledger.read(charge.hold.id)).toMatchObject({ charged: 200, delivered: 200, attempt: '' });
        expect(await store.ledger.purge(Date.now() + 120_000)).toBe(1);
        expect(await store.ledger.read(charge.hold.id)).toBeNull();
        expect(await used(store, key)).toBe(200);
      });

      it('gives back the words of a count whose result was never sent, off the month and the hold', async () => {
        const { first: store } = await database();
        const key = await keyOf(store, 'essential');
        const charge = await holds(store).charge(key, 300, { now: NOV, id: 'late-1', keepUntil: NOV + 86_400_000 });
        if (!charge.ok) throw new Error('refused');
        expect(await charge.hold.deliver(100)).toBe('counted');
        // The next count (to 200) lands after its attempt was told store_unavailable and withheld its result.
        expect(await store.ledger.deliver('late-1', charge.hold.fence.attempt, 200)).toBe('counted');
        await store.ledger.giveBack('late-1', { keyId: key.id, period: NOV_PERIOD, words: 100, calls: 0 });
        expect(await used(store, key)).toBe(200);
        expect(await store.ledger.read('late-1')).toMatchObject({ charged: 200, delivered: 100 });
        // The attempt ends having handed over 100 words: the rest goes back, and the withheld result is not paid.
        await charge.hold.settle();
        expect(await used(store, key)).toBe(100);
        // A hold already gone: the month alone.
        await store.ledger.giveBack('gone-1', { keyId: key.id, period: NOV_PERIOD, words: 40, calls: 0 });
        expect(await used(store, key)).toBe(60);
      });

      it('purges settled holds once expired, never open ones', async () => {
        const { first: store } = await database();
        const key = await keyOf(store, 'essential');
        const open = await holds(store).charge(key, 50, { id: 'open-1', keepUntil: NOV + 10, now: NOV });
        const settled = await holds(store).charge(key, 50, { id: 'settled-1', keepUntil: NOV + 10, now: NOV });
        if (!open.ok || !settled.ok) throw new Error('refused');
        await settled.hold.settle();
        expect(await store.ledger.purge(NOV + 20)).toBe(1);
        expect(await store.ledger.read('open-1')).toMatchObject({ charged: 50, delivered: 0 });
      });
    });

    describe('calibration profiles (issue 34)', () => {
      const row = (keyId: number, id: string, createdAt: number) => ({
        id,
        keyId,
        name: `essays ${id}`,
        modelVersion: 'm-1',
        createdAt,
        summary: JSON.stringify({ name: `essays ${id}`, languages: { en: { texts: 60 } } }),
        profile: JSON.stringify(smallProfile(`essays ${id}`)),
      });

      it("stores a key's profiles, lists them newest first, and never shows them to another key", async () => {
        const { first: store } = await fresh();
        const owner = await keyOf(store);
        const other = await keyOf(store);
        await store.calibrations.insert(row(owner.id, 'cal_a', NOV));
        await store.calibrations.insert(row(owner.id, 'cal_b', NOV + 5));
        expect((await store.calibrations.list(owner.id)).map((c) => c.id)).toEqual(['cal_b', 'cal_a']);
        expect(await store.calibrations.count(owner.id)).toBe(2);
        const got = await store.calibrations.get(owner.id, 'cal_a');
        expect(got).toEqual({
          id: 'cal_a',
          keyId: owner.id,
          name: 'essays cal_a',
          modelVersion: 'm-1',
          createdAt: NOV,
          summary: row(owner.id, 'cal_a', NOV).summary,
        });
        // The summary is what a list reads: the profile's samples never come with it.
        expect(got!.summary).not.toContain('samples');
        expect(await store.calibrations.lookup(owner.id, 'cal_a')).toEqual(JSON.parse(row(owner.id, 'cal_a', NOV).profile));
        // Another key sees nothing: not in its list, not by id, not for a detection, and cannot delete it.
        expect(await store.calibrations.list(other.id)).toEqual([]);
        expect(await store.calibrations.count(other.id)).toBe(0);
        expect(await store.calibrations.get(other.id, 'cal_a')).toBeNull();
        expect(await store.calibrations.exists(other.id, 'cal_a')).toBe(false);
        expect(await store.calibrations.lookup(other.id, 'cal_a')).toBeNull();
        expect(await store.calibrations.remove(other.id, 'cal_a')).toBe(false);
        expect(await store.calibrations.lookup(owner.id, 'cal_unknown')).toBeNull();
        expect(await store.calibrations.remove(owner.id, 'cal_a')).toBe(true);
        expect(await store.calibrations.remove(owner.id, 'cal_a')).toBe(false);
        expect(await store.calibrations.get(owner.id, 'cal_a')).toBeNull();
        expect(await store.calibrations.lookup(owner.id, 'cal_a')).toBeNull();
        expect(await store.calibrations.count(owner.id)).toBe(1);
        await store.close(); // PostgreSQL counts every pool's connections across the suite
      });

      it("never lets concurrent inserts pass a key's limit, across instances (issue 40)", async () => {
        const { first, open } = await fresh();
        const second = await open();
        const key = await keyOf(first);
        const outcomes = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            (i % 2 ? second : first).calibrations.insert(row(key.id, `cal_limit_${i}`, NOV + i), { limit: 20 }),
          ),
        );
        expect(outcomes.filter((o) => o === 'stored')).toHaveLength(20);
        expect(outcomes.filter((o) => o === 'limit_reached')).toHaveLength(20);
        expect(await first.calibrations.count(key.id)).toBe(20);
        // Without a limit (an operator's `calibrate --key-id`), always stored.
        expect(await first.calibrations.insert(row(key.id, 'cal_operator', NOV))).toBe('stored');
        await Promise.all([first.close(), second.close()]);
      });

      it('stores a profile only while its charge is held, and finishes the hold with it (issue 40)', async () => {
        const { first: store } = await fresh();
        const key = await keyOf(store, 'essential');
        const leaseMs = 300;
        const holds = createHolds({ quota: store.quota, ledger: store.ledger, onEvent: () => {}, background: false, leaseMs });
        const live = await holds.charge(key, 100, { now: NOV });
        if (!live.ok) throw new Error('refused');
        expect(await store.calibrations.insert(row(key.id, 'cal_paid', NOV), { hold: live.hold.fence })).toBe('stored');
        expect(await store.ledger.read(live.hold.id)).toBeNull();
        // A key at its limit: nothing stored, the hold left to be settled.
        const full = await holds.charge(key, 100, { now: NOV });
        if (!full.ok) throw new Error('refused');
        expect(await store.calibrations.insert(row(key.id, 'cal_over', NOV), { limit: 1, hold: full.hold.fence })).toBe('limit_reached');
        expect(await store.ledger.read(full.hold.id)).toMatchObject({ charged: 100 });
        await full.hold.settle({ calls: 1 });
        // Past the lease (by the store's clock), swept or not: nothing stored.
        const stalled = await holds.charge(key, 100, { now: NOV });
        if (!stalled.ok) throw new Error('refused');
        await Bun.sleep(leaseMs + 50);
        expect(await store.calibrations.insert(row(key.id, 'cal_unpaid', NOV), { hold: stalled.hold.fence })).toBe('lease_lost');
        await store.ledger.sweep(SWEPT_KEEP_MS);
        expect(await store.calibrations.insert(row(key.id, 'cal_unpaid', NOV), { hold: stalled.hold.fence })).toBe('lease_lost');
        expect((await store.calibrations.list(key.id)).map((c) => c.id)).toEqual(['cal_paid']);
        expect(await store.quota.read(key.id, NOV_PERIOD, false)).toMatchObject({ wordsUsed: 100 });
        await store.close();
      });

      it('shares a profile made on one instance with the others at once, and a deletion within the cache time', async () => {
        const { first, open } = await fresh();
        const second = await open();
        const key = await keyOf(first);
        expect(await second.calibrations.lookup(key.id, 'cal_shared')).toBeNull(); // a miss is not cached
        await first.calibrations.insert(row(key.id, 'cal_shared', NOV));
        expect(await second.calibrations.lookup(key.id, 'cal_shared')).toMatchObject({ name: 'essays cal_shared' });
        expect(await first.calibrations.remove(key.id, 'cal_shared')).toBe(true);
        expect(await first.calibrations.lookup(key.id, 'cal_shared')).toBeNull(); // the deleting instance: at once
        await Bun.sleep(CALIBRATION_CACHE_TTL_MS + 50);
        expect(await second.calibrations.lookup(key.id, 'cal_shared')).toBeNull(); // the others: within the TTL
        await Promise.all([first.close(), second.close()]);
      });
    });

    it('reports itself up', async () => {
      const { first: store } = await fresh();
      expect(await store.health()).toEqual({ store: 'up' });
    });
  });
}
