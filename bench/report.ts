/** Renders the benchmark results as Markdown (printed and written to bench/RESULTS.md) with PASS/FAIL per target. */
import type { BinaryResult } from './binary';
import type { EngineRow } from './engine';
import type { ExtractResult } from './extract';
import type { HttpResult, HttpRow } from './http';
import type { RealTextsRow } from './real-texts';
import type { CalibrationResult } from './calibration';
import type { RateResult } from './rate';
import { RATE_HTTP_SECONDS, RATE_IN_FLIGHT, RATE_TAKES } from './rate';
import type { StoreResult, StoreRow } from './store';
import { STORE_CONNECTIONS, STORE_RUN_SECONDS, VARIED_KEYS } from './store';
import { HTTP_TEXT_VARIANTS } from './files';
import { HTTP_REPEATS, HTTP_RUN_SECONDS } from './http';
import { fmt } from './stats';

/** Everything one run measured, plus where it ran. */
export interface BenchResults {
  machine: {
    date: string;
    cpu: string;
    cores: number;
    memGb: number;
    os: string;
    bun: string;
    commit: string;
    loadBefore: string;
    loadAfter: string;
  };
  engine: EngineRow[];
  extract: ExtractResult;
  http: HttpResult;
  /** Detect and bare at 64 connections with WORKERS=1 (null when the default is one process already). */
  oneProcess: (HttpRow & { workers: number }) | null;
  /** Engine latency on real dev texts (null without ../shared/data). */
  realTexts: RealTextsRow[] | null;
  /** Single mode on SQLite and PostgreSQL, varied keys and one hot key. */
  stores: StoreResult;
  /** The per-key request rate's cost (bench/rate.ts); absent in reports written before it existed. */
  rate?: RateResult;
  /** Detection with and without a calibration profile (bench/calibration.ts); absent before issue 34. */
  calibration?: CalibrationResult;
  binary: BinaryResult;
  seconds: number;
}

/** One checked target. */
export interface Target {
  name: string;
  limit: string;
  measured: string;
  pass: boolean;
}

const ms = (v: number) => `${fmt(v)} ms`;

function engineP50(r: BenchResults, fn: EngineRow['fn'], words: number): number {
  return r.engine.find((row) => row.fn === fn && row.words === words)?.p50 ?? Number.NaN;
}

/** The targets, evaluated on this run. */
export function targets(r: BenchResults): Target[] {
  const out: Target[] = [];
  for (const fn of ['engine.analyze', 'detector.analyze'] as const) {
    for (const [words, limit] of [
      [500, 0.2],
      [5_000, 2],
      [10_000, 4],
    ] as const) {
      const p50 = engineP50(r, fn, words);
      out.push({
        name: `${fn} ${words.toLocaleString('en-US')} words p50`,
        limit: `<= ${limit} ms`,
        measured: ms(p50),
        pass: p50 <= limit,
      });
    }
  }
  const at64 = r.http.rows.find((row) => row.connections === 64)!;
  const ratio = at64.detect.rps / at64.bare.rps;
  out.push({ name: 'HTTP detect/bare throughput, 64 connections', limit: '>= 0.25', measured: fmt(ratio, 2), pass: ratio >= 0.25 });
  out.push({ name: 'HTTP detect p99, 64 connections', limit: '<= 25 ms', measured: ms(at64.detect.p99), pass: at64.detect.p99 <= 25 });
  out.push({
    name: 'ms_cost p50, 500 words (API-reported)',
    limit: '<= 1 ms',
    measured: ms(r.http.msCostP50),
    pass: r.http.msCostP50 <= 1,
  });
  const batchRatio = r.http.duringBatch.p99 / r.http.alone.p99;
  out.push({ name: 'single p99 during a PDF batch / without', limit: '<= 3x', measured: `${fmt(batchRatio)}x`, pass: batchRatio <= 3 });
  const pgShare = postgresShare(r, 'varied');
  if (pgShare !== null) {
    out.push({
      name: `PostgreSQL / SQLite throughput, varied keys, ${STORE_CONNECTIONS} connections`,
      limit: '>= 0.50',
      measured: fmt(pgShare, 2),
      pass: pgShare >= 0.5,
    });
  }
  out.push({
    name: 'binary cold start to first /health 200 (median)',
    limit: '<= 300 ms',
    measured: ms(r.binary.coldStartMs),
    pass: r.binary.coldStartMs <= 300,
  });
  out.push({
    name: 'binary idle RSS (all processes)',
    limit: '<= 150 MB',
    measured: `${fmt(r.binary.idleRssMb, 1)} MB`,
    pass: r.binary.idleRssMb <= 150,
  });
  return out;
}

function storeRow(r: BenchResults, store: StoreRow['store'], keys: StoreRow['keys']): StoreRow | undefined {
  return r.stores.rows.find((row) => row.store === store && row.keys === keys);
}

/** PostgreSQL's req/s over SQLite's for one key pattern, or null when PostgreSQL was skipped. */
export function postgresShare(r: BenchResults, keys: StoreRow['keys']): number | null {
  const pg = storeRow(r, 'postgres', keys);
  const sqlite = storeRow(r, 'sqlite', keys);
  return pg && sqlite ? pg.load.rps / sqlite.load.rps : null;
}

function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map((_, i) => (i === 0 ? '---' : '---:'))), ...rows.map(line)].join('\n');
}

/** Where a detect request's server CPU goes: analysis (in-process p50) vs everything around it. */
function overheadLine(r: BenchResults): string {
  const at16 = r.http.rows.find((row) => row.connections === 16)!;
  const analyze = engineP50(r, 'detector.analyze', 500);
  const cpu = at16.detect.cpuMsPerRequest;
  if (cpu <= analyze)
    return `At 16 connections a detect request cost the server ${ms(cpu)} of CPU, less than detector.analyze's in-process p50 (${ms(analyze)}): too noisy to split.`;
  return (
    `At 16 connections a detect request costs the server ${ms(cpu)} of CPU: detector.analyze (in-process p50) ${ms(analyze)}, ` +
    `the rest (${ms(cpu - analyze)}, of which ${ms(at16.bare.cpuMsPerRequest)} for HTTP + JSON parsing as in bare) is the HTTP layer: ` +
    'key lookup, quota check and charge, usage event, word count for the quota, response JSON, log line.'
  );
}

/**
 * The most detect/bare one process could reach if the HTTP layer cost nothing beyond bare:
 * bare's CPU per request over bare's plus the in-process analysis.
 */
export function singleProcessBound(r: BenchResults): number {
  const at64 = r.http.rows.find((row) => row.connections === 64)!;
  const bare = at64.bare.cpuMsPerRequest;
  return bare / (bare + engineP50(r, 'detector.analyze', 500));
}

function boundLine(r: BenchResults): string {
  return (
    `Upper bound for one process: even if everything but the analysis cost no more than bare, detect/bare would be ` +
    `bare CPU / (bare CPU + detector.analyze p50) = ${fmt(singleProcessBound(r), 2)}.`
  );
}

function oneProcessSection(r: BenchResults): string[] {
  const w = r.oneProcess;
  if (!w) return [];
  return [
    'With `WORKERS=1` (one server process), 64 connections:',
    '',
    table(
      ['Processes', 'detect req/s', 'detect p50', 'detect p99', 'detect CPU/req', 'bare req/s', 'bare p99', 'detect/bare'],
      [
        [
          String(w.workers),
          fmt(w.detect.rps, 0),
          ms(w.detect.p50),
          ms(w.detect.p99),
          ms(w.detect.cpuMsPerRequest),
          fmt(w.bare.rps, 0),
          ms(w.bare.p99),
          fmt(w.detect.rps / w.bare.rps, 2),
        ],
      ],
    ),
    '',
  ];
}

function realTextsSection(r: BenchResults): string[] {
  if (!r.realTexts) return ['## Engine on real texts', '', 'Skipped: ../shared/data is not present.', ''];
  const first = r.realTexts[0];
  return [
    `## Engine on real texts (${first.texts} dev texts of ${fmt(first.meanWords, 0)} words on average, informational)`,
    '',
    'Each call scores a different text from ../shared/data (bench/real-texts.ts). The generated corpus above has a small',
    'vocabulary whose n-grams stay in the CPU cache; real texts reach across the 4 MB weight table and take longer.',
    '',
    table(
      ['Function', 'Texts', 'p50', 'p99'],
      r.realTexts.map((row) => [row.fn, String(row.texts), ms(row.p50), ms(row.p99)]),
    ),
    '',
  ];
}

function storeSection(r: BenchResults): string[] {
  const { stores } = r;
  const rows = stores.rows.map((row) => [
    row.store === 'sqlite' ? 'SQLite' : 'PostgreSQL',
    row.keys === 'varied' ? `${VARIED_KEYS} keys` : 'one hot key',
    fmt(row.load.rps, 0),
    ms(row.load.p50),
    ms(row.load.p99),
    ms(row.load.cpuMsPerRequest),
    row.load.storeCpuMsPerRequest === undefined ? '-' : ms(row.load.storeCpuMsPerRequest),
    row.store === 'postgres' ? fmt(postgresShare(r, row.keys) ?? Number.NaN, 2) : '',
  ]);
  return [
    `## Storage: SQLite and PostgreSQL (${STORE_CONNECTIONS} connections, best of ${HTTP_REPEATS} runs of ${STORE_RUN_SECONDS} s, alternating)`,
    '',
    `The same single-mode load, \`WORKERS=auto\` (${stores.processes} processes), with each store. Varied keys: every request's key is one of ${VARIED_KEYS}; hot key: all on one key.`,
    'PostgreSQL is a local throwaway cluster (bench/store.ts) with its durable defaults (fsync, synchronous_commit on) on the same cores as the server and wrk;',
    'its CPU per request (all its processes) is counted apart. Charges of one event-loop turn go to PostgreSQL as one charge_words call (docs/deploy.md).',
    '',
    ...(stores.postgresSkipped ? [`PostgreSQL rows skipped: ${stores.postgresSkipped}.`, ''] : []),
    table(['Store', 'Keys', 'req/s', 'p50', 'p99', 'server CPU/req', 'PostgreSQL CPU/req', 'vs SQLite'], rows),
    '',
  ];
}

/** A detection with and without a calibration profile, and the profile lookup (issue 34). */
function calibrationSection(r: BenchResults): string[] {
  const c = r.calibration;
  if (!c) return [];
  const p50 = (what: string, variant: string) => c.rows.find((row) => row.what === what && row.variant === variant)?.p50 ?? Number.NaN;
  const ratio = (what: string) => fmt(p50(what, 'with a profile') / p50(what, 'without a profile'), 2);
  const adaptedRatio = (what: string) => fmt(p50(what, 'with an adapted profile') / p50(what, 'with a profile'), 2);
  return [
    `## Calibration profiles (bench/calibration.ts, ${c.words}-word texts, a profile of ${c.profileTexts} texts)`,
    '',
    '`POST /v1/detect` through the app in process (route, key, charge on a SQLite file, analysis; no socket) and `detector.analyze` alone, with and without a profile, interleaved; best of 5 rounds by p50.',
    '',
    table(
      ['Call', 'Profile', 'Calls', 'p50', 'p99'],
      c.rows.map((row) => [row.what, row.variant, String(row.calls), ms(row.p50), ms(row.p99)]),
    ),
    '',
    `With/without p50: ${ratio('POST /v1/detect')}x through the route, ${ratio('detector.analyze')}x in the detector. The profile lookup: ${fmt(c.lookupCachedUs, 2)} µs cached (per request); reading and parsing the stored profile (${fmt(c.profileBytes / 1024, 1)} KiB) would cost ${fmt(c.lookupUncachedUs, 0)} µs.`,
    ...(c.adaptedBytes === undefined
      ? []
      : [
          '',
          `Adapted/calibration-only p50 (issue 38: at most 1.5x): ${adaptedRatio('POST /v1/detect')}x through the route, ${adaptedRatio('detector.analyze')}x in the detector; the adapted profile weighs ${c.adaptedFeatures} n-grams (${fmt(c.adaptedBytes / 1024, 1)} KiB stored).`,
        ]),
    ...(c.build === undefined
      ? []
      : [
          '',
          `Another key's \`POST /v1/detect\` while \`POST /v1/calibrations\` makes an adapted profile of ${c.build.humanTexts} human texts and ${c.build.aiTexts} AI examples in the same process (${fmt(c.build.buildMs / 1000, 1)} s: scored and fitted in slices):`,
          '',
          table(
            ['', 'Calls', 'p50', 'p99', 'max'],
            [
              ['idle', String(c.build.idle.calls), ms(c.build.idle.p50), ms(c.build.idle.p99), ms(c.build.idle.max)],
              ['during the build', String(c.build.during.calls), ms(c.build.during.p50), ms(c.build.during.p99), ms(c.build.during.max)],
            ],
          ),
        ]),
    '',
  ];
}

/** The rate limiter's cost: store takes in process, and the HTTP load with RATE_LIMITS on and off. */
function rateSection(r: BenchResults): string[] {
  const { rate } = r;
  if (!rate) return [];
  const { on, off, processes } = rate.http;
  const rows = rate.takes.map((row) => [
    row.store === 'sqlite' ? 'SQLite' : 'PostgreSQL',
    row.keys === 'hot' ? 'one hot key' : `${RATE_IN_FLIGHT} keys`,
    fmt(row.takesPerSec, 0),
    `${fmt(row.usPerTake, 1)} us`,
    `${fmt(row.cpuUsPerTake, 1)} us`,
  ]);
  const httpRow = (name: string, load: typeof on) => [name, fmt(load.rps, 0), ms(load.p50), ms(load.p99), ms(load.cpuMsPerRequest)];
  return [
    `## Request rate limiter (bench/rate.ts)`,
    '',
    `Each request with a key takes one event from its bucket in the store (one upsert; on PostgreSQL one take_rates call per event-loop turn). In process: ${RATE_TAKES.toLocaleString('en-US')} takes with ${RATE_IN_FLIGHT} in flight (an enterprise key: none refused); CPU is this process's.`,
    '',
    ...(rate.postgresSkipped ? [`PostgreSQL rows skipped: ${rate.postgresSkipped}.`, ''] : []),
    table(['Store', 'Keys', 'takes/s', 'wall/take', 'CPU/take'], rows),
    '',
    `Single mode on SQLite, one hot key, ${RATE_IN_FLIGHT} connections, \`WORKERS=auto\` (${processes} processes), best of 2 runs of ${RATE_HTTP_SECONDS} s each, alternating:`,
    '',
    table(['RATE_LIMITS', 'req/s', 'p50', 'p99', 'server CPU/req'], [httpRow('on (default)', on), httpRow('off', off)]),
    '',
    `The limiter costs ${fmt(((on.cpuMsPerRequest - off.cpuMsPerRequest) / off.cpuMsPerRequest) * 100, 1)}% server CPU per request here (${fmt((on.cpuMsPerRequest - off.cpuMsPerRequest) * 1000, 0)} us).`,
    '',
  ];
}

/** True when other work already kept the machine busy as the run started (the run itself adds ~2 to the load). */
function busy(r: BenchResults): boolean {
  return Number(r.machine.loadBefore.split(' / ')[0]) > r.machine.cores / 2;
}

/** The whole report as Markdown. */
export function renderReport(r: BenchResults): string {
  const m = r.machine;
  const { http, extract, binary } = r;
  const checked = targets(r);
  const failed = checked.filter((t) => !t.pass).length;
  return [
    '# Benchmark results',
    '',
    `Written by \`bun run bench\` (bench/run.ts) on ${m.date}, in ${fmt(r.seconds, 0)} s.`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${fmt(m.memGb, 1)} GB RAM, ${m.os}; Bun ${m.bun}; commit ${m.commit}.`,
    `Load average (1/5/15 min) before: ${m.loadBefore}, after: ${m.loadAfter}. Absolute numbers move with other work`,
    'on the machine; the ratios (detect/bare, with/without batch) are measured in the same run and move less.',
    ...(busy(r)
      ? [
          '',
          `**Warning: the 1-minute load average was already ${r.machine.loadBefore.split(' / ')[0]} on ${r.machine.cores} cores when the run started: other processes competed for the CPU.**`,
        ]
      : []),
    '',
    '## Targets',
    '',
    table(
      ['Target', 'Limit', 'Measured', 'Result'],
      checked.map((t) => [t.name, t.limit, t.measured, t.pass ? 'PASS' : '**FAIL**']),
    ),
    '',
    `${checked.length - failed} of ${checked.length} targets pass.`,
    '',
    '## Engine (in process, fixed generated corpus: bench/corpus.ts)',
    '',
    '`detector.analyze` is what the API runs (engine + explanations + word count); `engine.analyze` is the raw wasm scorer.',
    'Each row is the best of 5 rounds (by p50), the rounds interleaved across sizes.',
    '',
    table(
      ['Function', 'Words', 'Calls', 'p50', 'p99', 'Words/s'],
      r.engine.map((row) => [
        row.fn,
        row.words.toLocaleString('en-US'),
        String(row.calls),
        ms(row.p50),
        ms(row.p99),
        fmt(row.wordsPerSec, 0),
      ]),
    ),
    '',
    ...realTextsSection(r),
    `## HTTP, single mode, 500-word texts (wrk, 1 thread, best of ${HTTP_REPEATS} runs of ${HTTP_RUN_SECONDS} s, alternating)`,
    '',
    `wrk sends ${HTTP_TEXT_VARIANTS} different 500-word texts in turn. \`bare\` is a bench-only route on the same server (bench/server.ts) that reads and parses the same JSON bodies and returns \`{}\`.`,
    `The server runs its default configuration, \`WORKERS=auto\`: ${http.processes} process${http.processes === 1 ? '' : 'es'} on one port here, sharing the ${m.cores} cores with wrk. Server CPU is the processes' user+system time divided by the requests they served.`,
    '',
    table(
      [
        'Connections',
        'detect req/s',
        'detect p50',
        'detect p99',
        'detect CPU/req',
        'bare req/s',
        'bare p50',
        'bare p99',
        'bare CPU/req',
        'detect/bare',
      ],
      http.rows.map((row) => [
        String(row.connections),
        fmt(row.detect.rps, 0),
        ms(row.detect.p50),
        ms(row.detect.p99),
        ms(row.detect.cpuMsPerRequest),
        fmt(row.bare.rps, 0),
        ms(row.bare.p50),
        ms(row.bare.p99),
        ms(row.bare.cpuMsPerRequest),
        fmt(row.detect.rps / row.bare.rps, 2),
      ]),
    ),
    '',
    overheadLine(r),
    '',
    boundLine(r),
    '',
    ...oneProcessSection(r),
    `API-reported \`ms_cost\` over ${http.msCostSamples} sequential requests: p50 ${ms(http.msCostP50)}, p99 ${ms(http.msCostP99)}.`,
    '',
    ...storeSection(r),
    ...rateSection(r),
    ...calibrationSection(r),
    '## Batch',
    '',
    `Extraction pool (${extract.poolSize} worker${extract.poolSize === 1 ? '' : 's'}), all files submitted at once:`,
    `PDF ${fmt(extract.pdfPagesPerSec, 0)} pages/s (${extract.pdfFiles} files x ${extract.pdfPages} pages of ~300 words),`,
    `DOCX ${fmt(extract.docxFilesPerSec, 0)} files/s (${extract.docxFiles} files x ${extract.docxWords.toLocaleString('en-US')} words).`,
    `Over HTTP (batch route, extraction + scoring + NDJSON) while the single-mode load ran: ${fmt(http.batchPagesPerSec, 0)} PDF pages/s (${http.batches} batches).`,
    '',
    table(
      [`Single mode, ${http.alone.connections} connections`, 'req/s', 'p50', 'p99'],
      [
        ['without a batch', fmt(http.alone.rps, 0), ms(http.alone.p50), ms(http.alone.p99)],
        ['while PDF batches run', fmt(http.duringBatch.rps, 0), ms(http.duringBatch.p50), ms(http.duringBatch.p99)],
        [
          'ratio',
          fmt(http.duringBatch.rps / http.alone.rps, 2),
          `${fmt(http.duringBatch.p50 / http.alone.p50, 2)}x`,
          `${fmt(http.duringBatch.p99 / http.alone.p99, 2)}x`,
        ],
      ],
    ),
    '',
    '## Binary (dist-style build, run alone from an empty folder)',
    '',
    'Cold start is to the first 200 on /health from the primary; RSS is the sum over all server processes (default `WORKERS=auto`).',
    '',
    table(
      ['Size', 'Build', 'Cold start median (min-max)', 'Processes', 'RSS idle', 'RSS peak, 64-connection load', 'RSS peak, PDF batch'],
      [
        [
          `${fmt(binary.sizeMb, 0)} MB`,
          `${fmt(binary.buildSec, 1)} s`,
          `${ms(binary.coldStartMs)} (${fmt(Math.min(...binary.coldStartsMs), 0)}-${fmt(Math.max(...binary.coldStartsMs), 0)})`,
          String(binary.processes),
          `${fmt(binary.idleRssMb, 1)} MB`,
          `${fmt(binary.loadRssMb, 1)} MB`,
          `${fmt(binary.batchRssMb, 1)} MB`,
        ],
      ],
    ),
    '',
  ].join('\n');
}
