/**
 * Rate-limiter section (issue 28): what the per-key request rate costs. In process, the store's
 * take (one upsert per request; on PostgreSQL one take_rates call per event-loop turn) on a SQLite
 * file and on PostgreSQL, with 64 requests in flight, on one hot key and over 64 keys; then the
 * single-mode HTTP load on SQLite, one hot key, with RATE_LIMITS on (the default) and off.
 * `bun run bench/rate.ts` runs this section alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { admitRequest } from '../src/modules/rate';
import { openStore } from '../src/store';
import type { ApiKey, Store } from '../src/store/types';
import { POSTGRES_MISSING, startPostgres } from '../test/fixtures/postgres';
import { best, openBench, type MeasuredLoad } from './http';

/** Takes per in-process run (an enterprise key's burst is 60,000: none is refused). */
export const RATE_TAKES = 20_000;
/** Requests in flight, like the storage section's connections. */
export const RATE_IN_FLIGHT = 64;
/** Seconds per HTTP run, and runs per setting (alternating on/off). */
export const RATE_HTTP_SECONDS = 3;
const RATE_HTTP_REPEATS = 2;

/** One in-process run. */
export interface RateTakeRow {
  store: 'sqlite' | 'postgres';
  keys: 'hot' | 'varied';
  takesPerSec: number;
  /** Wall time per take with RATE_IN_FLIGHT in flight (the cost each request pays is at most this). */
  usPerTake: number;
  /** Process CPU per take (the server's share of the cost). */
  cpuUsPerTake: number;
}

/** The section's results. */
export interface RateResult {
  takes: RateTakeRow[];
  http: { on: MeasuredLoad; off: MeasuredLoad; processes: number };
  postgresSkipped: string | null;
}

function fakeKey(id: number): ApiKey {
  return { id, name: null, plan: 'enterprise', keyHash: '', prefix: '', status: 'active', createdAt: 0, revokedAt: null };
}

async function measureTakes(store: Store, kind: RateTakeRow['store'], keys: RateTakeRow['keys'], base: number): Promise<RateTakeRow> {
  const ids = keys === 'hot' ? [base] : Array.from({ length: RATE_IN_FLIGHT }, (_, i) => base + i);
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: RATE_IN_FLIGHT }, async () => {
      while (next < RATE_TAKES) {
        const i = next++;
        await admitRequest(store.rates, fakeKey(ids[i % ids.length]));
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    store: kind,
    keys,
    takesPerSec: RATE_TAKES / seconds,
    usPerTake: (seconds * 1e6) / RATE_TAKES,
    cpuUsPerTake: (cpu.user + cpu.system) / RATE_TAKES,
  };
}

/** The in-process takes on SQLite (a WAL file, as served) and PostgreSQL (durable defaults). */
async function benchTakes(): Promise<RateTakeRow[]> {
  const rows: RateTakeRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'bench-rate-'));
  const sqlite = await openStore({ databasePath: join(dir, 'rate.sqlite'), databaseUrl: null, storeTimeoutMs: 10_000 });
  try {
    rows.push(await measureTakes(sqlite, 'sqlite', 'hot', 1), await measureTakes(sqlite, 'sqlite', 'varied', 1_000));
  } finally {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  }
  if (POSTGRES_MISSING) return rows;
  const cluster = startPostgres({ durable: true });
  try {
    const postgres = await openStore({ databasePath: '', databaseUrl: await cluster.createDatabase('rate'), storeTimeoutMs: 10_000 });
    try {
      rows.push(await measureTakes(postgres, 'postgres', 'hot', 1), await measureTakes(postgres, 'postgres', 'varied', 1_000));
    } finally {
      await postgres.close();
    }
  } finally {
    cluster.destroy();
  }
  return rows;
}

/** Single mode on SQLite, one hot key, 64 connections: the limiter on and off, alternating, best of RATE_HTTP_REPEATS each. */
async function benchHttpOnOff(): Promise<RateResult['http']> {
  const on = await openBench();
  const off = await openBench({ env: { RATE_LIMITS: 'off' } });
  try {
    let withLimiter: MeasuredLoad | undefined;
    let without: MeasuredLoad | undefined;
    for (let i = 0; i < RATE_HTTP_REPEATS; i++) {
      withLimiter = best(withLimiter, await on.load('/api/detect', RATE_IN_FLIGHT, RATE_HTTP_SECONDS, 1));
      without = best(without, await off.load('/api/detect', RATE_IN_FLIGHT, RATE_HTTP_SECONDS, 1));
    }
    return { on: withLimiter!, off: without!, processes: on.workers };
  } finally {
    await on.close();
    await off.close();
  }
}

/** The whole section. */
export async function benchRate(): Promise<RateResult> {
  const takes = await benchTakes();
  const http = await benchHttpOnOff();
  return { takes, http, postgresSkipped: POSTGRES_MISSING };
}

if (import.meta.main) {
  const result = await benchRate();
  for (const row of result.takes) {
    console.log(
      `${row.store.padEnd(8)} ${row.keys.padEnd(6)} ${Math.round(row.takesPerSec)} takes/s  ${row.usPerTake.toFixed(1)} us/take wall  ${row.cpuUsPerTake.toFixed(1)} us/take CPU`,
    );
  }
  const { on, off } = result.http;
  console.log(
    `HTTP sqlite hot key: on ${Math.round(on.rps)} req/s CPU/req ${on.cpuMsPerRequest.toFixed(3)} ms p99 ${on.p99.toFixed(2)} ms; off ${Math.round(off.rps)} req/s CPU/req ${off.cpuMsPerRequest.toFixed(3)} ms p99 ${off.p99.toFixed(2)} ms`,
  );
  if (result.postgresSkipped) console.log(result.postgresSkipped);
  process.exit(0);
}
