import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { SQL } from 'bun';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import journal from '../../drizzle/postgres/meta/_journal.json';
import { chargeWords } from '../../src/modules/quota';
import { createKey, findActiveKey } from '../../src/modules/keys';
import { StoreOpenError, StoreUnavailableError } from '../../src/store/errors';
import { openPostgresStore } from '../../src/store/postgres';
import type { ApiKey } from '../../src/store/types';
import { POSTGRES_MISSING, startPostgres, warnIfMissing, type PostgresCluster } from '../fixtures/postgres';
import { freePort } from '../fixtures/server-process';
import { storeContract } from './contract';

setDefaultTimeout(SUITE_TIMEOUT_MS);

warnIfMissing('test/store/postgres.test.ts');
let cluster: PostgresCluster | undefined;
beforeAll(() => {
  if (!POSTGRES_MISSING) cluster = startPostgres();
});
afterAll(() => cluster?.destroy());

storeContract(
  POSTGRES_MISSING
    ? null
    : {
        dialect: 'postgres',
        async fresh() {
          const url = await cluster!.createDatabase();
          await (await openPostgresStore(url, { timeoutMs: 5000 })).close(); // migrated once
          return { open: () => openPostgresStore(url, { timeoutMs: 5000, migrate: false }) };
        },
      },
);

describe.if(!POSTGRES_MISSING)('PostgreSQL store', () => {
  it('lets several instances start (and migrate) at once on an empty database', async () => {
    const url = await cluster!.createDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => openPostgresStore(url, { timeoutMs: 5000 })));
    expect(await Promise.all(stores.map((s) => s.health()))).toEqual([{ store: 'up' }, { store: 'up' }, { store: 'up' }, { store: 'up' }]);
    const rows = await stores[0].db.$client`SELECT count(*)::integer AS n FROM drizzle.__drizzle_migrations`;
    expect(rows[0].n).toBe(journal.entries.length);
    await Promise.all(stores.map((s) => s.close()));
  });

  it('explains in one line why it cannot connect', async () => {
    const url = `postgres://postgres@127.0.0.1:${freePort()}/nothing`;
    const error = await openPostgresStore(url, { timeoutMs: 2000 }).catch((e) => e);
    expect(error).toBeInstanceOf(StoreOpenError);
    expect(error.message.split('\n')).toHaveLength(1);
    expect(error.message).toContain(`Cannot use the PostgreSQL database ${url}`);
    expect(error.message).toContain('DATABASE_URL');
  });

  it('redacts the password wherever it names the database', async () => {
    const url = `postgres://app:s3cret@127.0.0.1:${freePort()}/nothing`;
    const error = await openPostgresStore(url, { timeoutMs: 2000 }).catch((e) => e);
    expect(error.message).not.toContain('s3cret');
    expect(error.message).toContain('app:***@');
  });

  // Issue 23: SELECT 1 answered while every write failed, so /health said up. The writes are made
  // to fail by triggers that raise read_only_sql_transaction (25006), checked at each statement:
  // toggling default_transaction_read_only needed every pooled connection terminated, and one that
  // connected during the terminate kept the setting and failed the writes long after (CI, once).
  it('reports writes_failing while writes fail (a read-only database), and up once they succeed again', async () => {
    const url = await cluster!.createDatabase();
    const db = new SQL(url);
    const store = await openPostgresStore(url, { timeoutMs: 2000 });
    const created = await createKey(store.keys, { plan: 'free' });
    const key = (await findActiveKey(store.keys, created.key)) as ApiKey;
    expect((await chargeWords(store.quota, key, 100)).ok).toBe(true);
    const tables = ['monthly_usage', 'usage_events', 'rate_buckets', 'charge_holds'];
    try {
      await db.unsafe(`CREATE FUNCTION refuse_writes() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'cannot execute % in a read-only transaction', TG_OP USING ERRCODE = '25006'; END $$`);
      for (const table of tables)
        await db.unsafe(
          `CREATE TRIGGER refuse_writes BEFORE INSERT OR UPDATE OR DELETE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION refuse_writes()`,
        );
      const error = await chargeWords(store.quota, key, 100).catch((e) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      // Reads (and SELECT 1) still work: only the writes tell.
      expect(await store.health()).toMatchObject({ store: 'down', reason: 'writes_failing' });
      store.usage.record({
        keyId: key.id,
        mode: 'single',
        words: 1,
        score: 1,
        status: 503,
        errorCode: 'store_unavailable',
        durationMs: 1,
        createdAt: Date.now(),
      });
      await Bun.sleep(300); // the event's first write (after 50 ms) fails too
      expect(await store.health()).toMatchObject({ store: 'down', reason: 'writes_failing' });
    } finally {
      for (const table of tables) await db.unsafe(`DROP TRIGGER IF EXISTS refuse_writes ON ${table}`);
      await db.unsafe('DROP FUNCTION IF EXISTS refuse_writes()');
    }
    // The kept usage event is retried (at most 1 s apart): health follows without any request.
    const t0 = performance.now();
    let state = await store.health();
    while (state.store !== 'up' && performance.now() - t0 < 10_000) {
      await Bun.sleep(100);
      state = await store.health();
    }
    expect(state).toEqual({ store: 'up' });
    expect(performance.now() - t0).toBeLessThan(3000);
    const rows = await db`SELECT count(*)::integer AS n FROM usage_events WHERE key_id = ${key.id} AND status = 503`;
    expect(rows[0].n).toBe(1);
    expect((await chargeWords(store.quota, key, 100)).ok).toBe(true);
    await store.close();
    await db.close();
  }, 30_000);

  it('fails fast with StoreUnavailableError while the server is down, and recovers by itself', async () => {
    const url = await cluster!.createDatabase();
    const store = await openPostgresStore(url, { timeoutMs: 2000 });
    const created = await createKey(store.keys, { plan: 'free' });
    const key = (await findActiveKey(store.keys, created.key)) as ApiKey;
    expect((await chargeWords(store.quota, key, 100)).ok).toBe(true);
    cluster!.stop();
    try {
      const t0 = performance.now();
      const error = await chargeWords(store.quota, key, 100).catch((e) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(performance.now() - t0).toBeLessThan(2500);
      expect(await store.health()).toMatchObject({ store: 'down' });
      store.usage.record({
        keyId: key.id,
        mode: 'single',
        words: 1,
        score: 1,
        status: 200,
        errorCode: null,
        durationMs: 1,
        createdAt: Date.now(),
      });
      await Bun.sleep(200); // the usage write fails and is kept for a retry
    } finally {
      cluster!.start();
    }
    // Back without a restart of the store: charges work and the kept event is written.
    let ok = false;
    for (let i = 0; i < 50 && !ok; i++) {
      ok = await chargeWords(store.quota, key, 100).then(
        (r) => r.ok,
        () => false,
      );
      if (!ok) await Bun.sleep(100);
    }
    expect(ok).toBe(true);
    expect(await store.health()).toEqual({ store: 'up' });
    expect((await store.quota.read(key.id, new Date().toISOString().slice(0, 7), false)).wordsUsed).toBe(200);
    expect(await store.usage.countForKey(key.id)).toBe(1);
    await store.close();
  });

  it('gives back a charge that PostgreSQL commits after its request gave up (no double charge on retry)', async () => {
    const url = await cluster!.createDatabase();
    const events: string[] = [];
    const store = await openPostgresStore(url, { timeoutMs: 300, onEvent: (event) => events.push(event) });
    const created = await createKey(store.keys, { plan: 'free' });
    const key = (await findActiveKey(store.keys, created.key)) as ApiKey;
    expect((await chargeWords(store.quota, key, 100)).ok).toBe(true);
    // Another session holds the month's row: the next charge waits behind it, past its deadline.
    const blocker = new SQL({ url, max: 1 });
    await blocker`BEGIN`;
    await blocker`SELECT * FROM monthly_usage WHERE key_id = ${key.id} FOR UPDATE`;
    const error = await chargeWords(store.quota, key, 50).catch((e) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error.reason).toBe('timeout');
    await blocker`COMMIT`;
    await blocker.close();
    // The late charge commits, then is refunded: the month ends where it was before the 503.
    const period = new Date().toISOString().slice(0, 7);
    for (let i = 0; i < 40 && !events.includes('late_charge_refunding'); i++) await Bun.sleep(50);
    await Bun.sleep(200);
    expect(events).toContain('late_charge_refunding');
    expect(await store.quota.read(key.id, period, false)).toEqual({ wordsUsed: 100, calls: 0 });
    const rows = await store.db.$client`SELECT calls FROM monthly_usage WHERE key_id = ${key.id}`;
    expect(rows[0].calls).toBe(1);
    await store.close();
  });

  it('runs the embedded migrations inside a compiled binary', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-compiled-'));
    try {
      const binary = join(dir, 'probe');
      const entry = join(import.meta.dir, 'fixtures', 'compiled-entry.ts');
      expect(Bun.spawnSync(['bun', 'build', '--compile', entry, '--outfile', binary]).exitCode).toBe(0);
      const url = await cluster!.createDatabase();
      const run = Bun.spawnSync([binary, join(dir, 'x.sqlite'), url], { cwd: dir });
      expect(run.stderr.toString()).toBe('');
      expect(JSON.parse(run.stdout.toString()).postgresTables).toBe(8);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
