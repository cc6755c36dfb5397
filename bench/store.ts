/**
 * Storage section: the single-mode load (500-word texts, STORE_CONNECTIONS connections, the
 * default WORKERS=auto) against SQLite and against PostgreSQL, with the charges spread over many
 * keys ("varied") and all on one key ("hot key"). PostgreSQL is a throwaway local cluster
 * (test/fixtures/postgres.ts) with its durable defaults (fsync and synchronous_commit on), sharing
 * the machine's cores with the server and wrk. Skipped, with the reason, without PostgreSQL.
 * `bun run bench/store.ts` runs this section alone.
 */
import { POSTGRES_MISSING, startPostgres } from '../test/fixtures/postgres';
import { best, HTTP_REPEATS, openBench, type MeasuredLoad } from './http';

/** Connections of every storage row (the issue: 64). */
export const STORE_CONNECTIONS = 64;
/** Keys a varied-keys run spreads its requests over (one per connection). */
export const VARIED_KEYS = 64;
/** Seconds per run: a hot-key run charges one enterprise key (15M words) and must not exhaust it (~7,500 req/s x 500 words x 3 s = 11M). */
export const STORE_RUN_SECONDS = 3;

/** One store under one key pattern. */
export interface StoreRow {
  store: 'sqlite' | 'postgres';
  keys: 'varied' | 'hot';
  load: MeasuredLoad;
}

/** The storage section: its rows, or why PostgreSQL's were skipped. */
export interface StoreResult {
  rows: StoreRow[];
  processes: number;
  postgresSkipped: string | null;
}

/** SQLite and PostgreSQL servers side by side (the idle one costs nothing), runs alternating, best of HTTP_REPEATS each. */
export async function benchStores(): Promise<StoreResult> {
  const cluster = POSTGRES_MISSING ? null : startPostgres({ durable: true });
  const benches = {
    sqlite: await openBench(),
    ...(cluster ? { postgres: await openBench({ databaseUrl: await cluster.createDatabase('bench'), storePid: cluster.pid() }) } : {}),
  };
  try {
    const measured = new Map<string, StoreRow>();
    for (let round = 0; round < HTTP_REPEATS; round++) {
      for (const keys of ['varied', 'hot'] as const) {
        for (const [store, bench] of Object.entries(benches) as Array<[StoreRow['store'], typeof benches.sqlite]>) {
          const run = await bench.load('/api/detect', STORE_CONNECTIONS, STORE_RUN_SECONDS, keys === 'hot' ? 1 : VARIED_KEYS);
          const id = `${store}/${keys}`;
          measured.set(id, { store, keys, load: best(measured.get(id)?.load, run) });
        }
      }
    }
    return { rows: [...measured.values()], processes: benches.sqlite.workers, postgresSkipped: POSTGRES_MISSING };
  } finally {
    for (const bench of Object.values(benches)) await bench.close();
    cluster?.destroy();
  }
}

if (import.meta.main) {
  const result = await benchStores();
  for (const row of result.rows) {
    console.log(
      `${row.store.padEnd(8)} ${row.keys.padEnd(6)} ${Math.round(row.load.rps)} req/s  p50 ${row.load.p50.toFixed(2)} ms  p99 ${row.load.p99.toFixed(2)} ms  CPU/req ${row.load.cpuMsPerRequest.toFixed(3)} ms${row.load.storeCpuMsPerRequest === undefined ? '' : ` + PostgreSQL ${row.load.storeCpuMsPerRequest.toFixed(3)} ms`}`,
    );
  }
  if (result.postgresSkipped) console.log(result.postgresSkipped);
  process.exit(0);
}
