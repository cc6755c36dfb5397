/**
 * HTTP section: single mode (500-word texts) vs the bench-only bare endpoint at 1/16/64
 * connections, the API's own ms_cost, and single-mode latency while PDF batches run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config';
import { createKey } from '../src/modules/keys';
import { openStore } from '../src/store';
import type { Store } from '../src/store/types';
import { benchPdf, detectBodies, detectRequests } from './files';
import { startBenchServer, treeCpuMs, waitForChildren } from './proc';
import { BARE_PATH } from './server';
import { percentile } from './stats';
import { runWrk, type LoadResult } from './wrk';

/** Connection counts of the issue. */
export const CONNECTIONS = [1, 16, 64] as const;
/** Seconds per wrk run (and 2 s warm-up per endpoint). */
export const HTTP_RUN_SECONDS = 4;
/**
 * Each measurement is repeated, alternating with its counterpart (detect/bare, without/with a
 * batch), and the best run kept: other work on a shared machine only ever makes a run worse.
 */
export const HTTP_REPEATS = 3;
/** Sequential requests sampled for the API-reported ms_cost. */
const MS_COST_SAMPLES = 300;
/** Connections of the single-mode load measured with and without a PDF batch running. */
export const BATCH_CONNECTIONS = 16;
/** Each batch request: this many PDFs of this many pages. */
const BATCH_FILES = 4;
const BATCH_PAGES = 10;

/** A wrk run plus the server CPU time it cost per request. */
export interface MeasuredLoad extends LoadResult {
  cpuMsPerRequest: number;
  /** PostgreSQL's CPU per request (all its processes), when the server used PostgreSQL. */
  storeCpuMsPerRequest?: number;
}

/** Detect and bare at one connection count. */
export interface HttpRow {
  connections: number;
  detect: MeasuredLoad;
  bare: MeasuredLoad;
}

/** Everything the HTTP section measures. */
export interface HttpResult {
  /** Server processes (the default WORKERS=auto on this machine). */
  processes: number;
  rows: HttpRow[];
  msCostSamples: number;
  msCostP50: number;
  msCostP99: number;
  alone: MeasuredLoad;
  duringBatch: MeasuredLoad;
  batchPagesPerSec: number;
  batches: number;
}

/** A new enterprise key (15M words/month), so no run can exhaust the quota of another. */
async function freshKey(store: Store): Promise<string> {
  return (await createKey(store.keys, { plan: 'enterprise', name: 'bench' })).key;
}

/** Enterprise keys per wrk run: up to ~30,000 req/s of 500 words for 4 s before any quota runs out (then wrk reports non-2xx and the bench stops). */
const KEYS_PER_RUN = 4;

async function sampleMsCost(base: string, key: string, bodies: readonly string[]): Promise<number[]> {
  const costs: number[] = [];
  for (let i = 0; i < MS_COST_SAMPLES; i++) {
    const body = bodies[i % bodies.length];
    const r = await fetch(`${base}/api/detect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body,
    });
    costs.push(((await r.json()) as { ms_cost: number }).ms_cost);
  }
  return costs;
}

/** Posts PDF batches back to back until `stop` is set; returns pages extracted and batches completed. */
async function batchLoop(
  base: string,
  key: string,
  state: { stop: boolean },
): Promise<{ pages: number; batches: number; seconds: number }> {
  const pdfs = Array.from({ length: BATCH_FILES }, (_, i) => benchPdf(BATCH_PAGES, 100 + i));
  let batches = 0;
  const t0 = performance.now();
  while (!state.stop) {
    const form = new FormData();
    pdfs.forEach((pdf, i) => form.append('files[]', new File([pdf], `doc${i}.pdf`)));
    const r = await fetch(`${base}/api/detect`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
    const text = await r.text();
    const results = text.split('\n').filter((l) => l.includes('"type":"result"')).length;
    if (r.status !== 200 || results !== BATCH_FILES) throw new Error(`batch failed: ${r.status} ${text.slice(0, 300)}`);
    batches++;
  }
  return { pages: batches * BATCH_FILES * BATCH_PAGES, batches, seconds: (performance.now() - t0) / 1000 };
}

/** The better of two runs of the same load: more requests/s, or (`by: 'p99'`) the lower p99. */
export function best(a: MeasuredLoad | undefined, b: MeasuredLoad, by: 'rps' | 'p99' = 'rps'): MeasuredLoad {
  if (!a) return b;
  return (by === 'rps' ? b.rps > a.rps : b.p99 < a.p99) ? b : a;
}

/** Options of openBench: WORKERS (default: the server's own default) and a PostgreSQL database instead of SQLite. */
export interface BenchOptions {
  workers?: number;
  databaseUrl?: string;
  /** The PostgreSQL server's process id, to count its CPU per request too. */
  storePid?: number;
  /** More environment for the server (e.g. RATE_LIMITS=off). */
  env?: Record<string, string>;
}

/**
 * A bench server on a fresh database, with a wrk runner that also measures the server's CPU per
 * request (all its processes). `workers` sets WORKERS; without it the server runs its default.
 */
export async function openBench({ workers: workersSetting, databaseUrl, storePid, env: extraEnv = {} }: BenchOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-http-'));
  const databasePath = join(dir, 'bench.sqlite');
  const env: Record<string, string> = {
    DATABASE_PATH: databasePath,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(workersSetting ? { WORKERS: String(workersSetting) } : {}),
    ...extraEnv,
  };
  const workers = workersSetting ?? loadConfig({}).workers;
  const server = await startBenchServer([process.execPath, join(import.meta.dir, 'server.ts')], env, join(dir, 'server.log'));
  // Workers start after the primary answers: wait until they are all up, so every run sees them.
  await waitForChildren(server.pid, workers - 1);
  await Bun.sleep(workers > 1 ? 1000 : 0);
  // The bench's own connection to the server's store, to create keys.
  const store = await openStore({ databasePath, databaseUrl: databaseUrl ?? null, storeTimeoutMs: 10_000 }, { migrate: false });
  const bodies = detectBodies();
  /** One wrk run on fresh enterprise keys (`keysPerRun` of them, taken in turn by the requests). */
  const load = async (path: string, connections: number, seconds = HTTP_RUN_SECONDS, keysPerRun = KEYS_PER_RUN): Promise<MeasuredLoad> => {
    const keys: string[] = [];
    for (let i = 0; i < keysPerRun; i++) keys.push(await freshKey(store));
    const requests = detectRequests(keys);
    const cpu0 = await treeCpuMs(server.pid);
    const store0 = storePid ? await treeCpuMs(storePid) : 0;
    const result = await runWrk({ url: server.base + path, requests, connections, seconds });
    if (result.errors > 0) throw new Error(`${path} at ${connections} connections: ${result.errors} errors/non-2xx responses`);
    const storeCpu = storePid ? { storeCpuMsPerRequest: ((await treeCpuMs(storePid)) - store0) / result.requests } : {};
    return { ...result, cpuMsPerRequest: ((await treeCpuMs(server.pid)) - cpu0) / result.requests, ...storeCpu };
  };
  const close = async () => {
    await store.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  /** Detect and bare at `connections`, the best of HTTP_REPEATS runs each, alternating. */
  const loadPair = async (connections: number): Promise<HttpRow> => {
    let detect: MeasuredLoad | undefined;
    let bare: MeasuredLoad | undefined;
    for (let i = 0; i < HTTP_REPEATS; i++) {
      detect = best(detect, await load('/api/detect', connections));
      bare = best(bare, await load(BARE_PATH, connections));
    }
    return { connections, detect: detect!, bare: bare! };
  };
  return { server, store, bodies, load, loadPair, close, workers };
}

/** Detect and bare at 64 connections against a server with WORKERS processes (best of HTTP_REPEATS, alternating). */
export async function benchWorkers(workers: number): Promise<HttpRow & { workers: number }> {
  const bench = await openBench({ workers });
  try {
    await bench.load('/api/detect', 16, 2);
    await bench.load(BARE_PATH, 16, 2);
    return { workers, ...(await bench.loadPair(64)) };
  } finally {
    await bench.close();
  }
}

/** Runs the HTTP section against `bun bench/server.ts` (default configuration) on a temporary database. */
export async function benchHttp(): Promise<HttpResult> {
  const { server, store, bodies, load, loadPair, close, workers } = await openBench();
  try {
    await load('/api/detect', 16, 2);
    await load(BARE_PATH, 16, 2);
    const rows: HttpRow[] = [];
    for (const connections of CONNECTIONS) rows.push(await loadPair(connections));
    const costs = await sampleMsCost(server.base, await freshKey(store), bodies);

    let alone: MeasuredLoad | undefined;
    let duringBatch: MeasuredLoad | undefined;
    const batchStats = { pages: 0, batches: 0, seconds: 0 };
    for (let i = 0; i < HTTP_REPEATS; i++) {
      alone = best(alone, await load('/api/detect', BATCH_CONNECTIONS), 'p99');
      const state = { stop: false };
      const batch = batchLoop(server.base, await freshKey(store), state);
      await Bun.sleep(300); // let the first batch reach the pool
      duringBatch = best(duringBatch, await load('/api/detect', BATCH_CONNECTIONS), 'p99');
      state.stop = true;
      const done = await batch;
      batchStats.pages += done.pages;
      batchStats.batches += done.batches;
      batchStats.seconds += done.seconds;
    }
    return {
      processes: workers,
      rows,
      msCostSamples: costs.length,
      msCostP50: percentile(costs, 50),
      msCostP99: percentile(costs, 99),
      alone: alone!,
      duringBatch: duringBatch!,
      batchPagesPerSec: batchStats.pages / batchStats.seconds,
      batches: batchStats.batches,
    };
  } finally {
    await close();
  }
}
