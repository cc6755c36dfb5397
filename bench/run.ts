/**
 * `bun run bench`: engine, extraction, HTTP and binary benchmarks; prints the Markdown report and
 * writes it to bench/RESULTS.md. Needs `wrk` (installed with apt-get when missing); ../shared/data only
 * for the informational real-texts rows (skipped without it); PostgreSQL (Debian's package) for the
 * storage rows (skipped without it). Takes about three minutes on 2 cores. See docs/performance.md.
 */
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { benchBinary } from './binary';
import { benchCalibration } from './calibration';
import { benchEngine } from './engine';
import { benchExtract } from './extract';
import { benchHttp, benchWorkers } from './http';
import { benchRealTexts } from './real-texts';
import { benchRate } from './rate';
import { benchStores } from './store';
import { leakedListeners } from './proc';
import { renderReport, targets, type BenchResults } from './report';
import { ensureWrk } from './wrk';

/** Where the committed report goes. */
export const RESULTS_PATH = join(import.meta.dir, 'RESULTS.md');

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

function commit(): string {
  const head =
    Bun.spawnSync(['git', 'rev-parse', '--short', 'HEAD'], { cwd: import.meta.dir })
      .stdout.toString()
      .trim() || 'unknown';
  // The previous report itself does not make the measured code "uncommitted".
  const dirty = Bun.spawnSync(['git', 'status', '--porcelain', '--untracked-files=no', '--', ':(top)', ':(top,exclude)bench/RESULTS.md'], {
    cwd: import.meta.dir,
  })
    .stdout.toString()
    .trim();
  return dirty ? `${head} (with uncommitted changes)` : head;
}

function step(name: string): void {
  console.error(`[bench] ${new Date().toISOString().slice(11, 19)} ${name}`);
}

async function main(): Promise<void> {
  const t0 = performance.now();
  ensureWrk();
  const machine = {
    date: `${new Date().toISOString().replace('T', ' ').slice(0, 16)} UTC`,
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: cpus().length,
    memGb: totalmem() / 1024 ** 3,
    os: `${type()} ${release()}`,
    bun: Bun.version,
    commit: commit(),
    loadBefore: load(),
    loadAfter: '',
  };
  step('engine (in process)');
  const engine = await benchEngine();
  step('engine on real texts (../shared/data)');
  const realTexts = await benchRealTexts();
  step('extraction pool');
  const extract = await benchExtract();
  step('HTTP (bench server + wrk)');
  const http = await benchHttp();
  step('HTTP with WORKERS=1');
  const oneProcess = http.processes > 1 ? await benchWorkers(1) : null;
  step('HTTP on SQLite and PostgreSQL, varied keys and one hot key');
  const stores = await benchStores();
  step('request rate limiter: store takes, HTTP with RATE_LIMITS on and off');
  const rate = await benchRate();
  step('calibration profiles: detect with and without one, the cached lookup');
  const calibration = await benchCalibration();
  step('binary (build, cold start, RSS)');
  const binary = await benchBinary();
  machine.loadAfter = load();
  const results: BenchResults = {
    machine,
    engine,
    realTexts,
    extract,
    http,
    oneProcess,
    stores,
    rate,
    calibration,
    binary,
    seconds: (performance.now() - t0) / 1000,
  };
  const report = renderReport(results);
  await Bun.write(RESULTS_PATH, report);
  console.log(report);
  const leaked = leakedListeners();
  if (leaked.length > 0) throw new Error(`benchmark servers still listening: ${leaked.join(', ')}`);
  const failed = targets(results).filter((t) => !t.pass).length;
  console.error(`[bench] wrote ${RESULTS_PATH}; ${failed === 0 ? 'all targets pass' : `${failed} target(s) FAIL`}`);
}

if (import.meta.main) {
  try {
    await main();
    // Exit code 0 even when targets fail: the report is the output; FAIL lines say what to fix.
    process.exit(0);
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
}
