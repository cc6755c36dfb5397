import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { corpusText } from '../../bench/corpus';
import { asciiJson, detectRequests } from '../../bench/files';
import { renderReport, singleProcessBound, targets, type BenchResults } from '../../bench/report';
import { percentile } from '../../bench/stats';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const load = (rps: number, p50: number, p99: number) => ({
  connections: 64,
  requests: rps * 4,
  rps,
  p50,
  p99,
  errors: 0,
  cpuMsPerRequest: 1000 / rps,
});

function results(
  overrides: { engine500?: number; detectRps?: number; p99?: number; coldStart?: number; postgresRps?: number } = {},
): BenchResults {
  const engine = [500, 5_000, 10_000].flatMap((words) =>
    (['engine.analyze', 'detector.analyze'] as const).map((fn) => ({
      fn,
      words,
      calls: 200,
      p50: words === 500 ? (overrides.engine500 ?? 0.1) : words / 5_000,
      p99: 1,
      wordsPerSec: 1,
    })),
  );
  const row = (connections: number) => ({
    connections,
    detect: load(overrides.detectRps ?? 3_000, 5, overrides.p99 ?? 20),
    bare: load(10_000, 1, 2),
  });
  return {
    machine: {
      date: '2026-11-21 23:00 UTC',
      cpu: 'CPU',
      cores: 2,
      memGb: 8,
      os: 'Linux',
      bun: '1.4.4',
      commit: 'abc1234',
      loadBefore: '0.10 / 0.10 / 0.10',
      loadAfter: '0.20 / 0.10 / 0.10',
    },
    engine,
    extract: { poolSize: 1, pdfPagesPerSec: 300, pdfFiles: 12, pdfPages: 10, docxFilesPerSec: 400, docxFiles: 60, docxWords: 1_000 },
    http: {
      processes: 2,
      rows: [1, 16, 64].map(row),
      msCostSamples: 300,
      msCostP50: 0.3,
      msCostP99: 0.9,
      alone: load(1_000, 5, 20),
      duringBatch: load(900, 6, 30),
      batchPagesPerSec: 100,
      batches: 10,
    },
    oneProcess: { workers: 1, ...row(64) },
    realTexts: null,
    stores: {
      processes: 2,
      postgresSkipped: null,
      rows: [
        { store: 'sqlite', keys: 'varied', load: load(4_000, 8, 30) },
        { store: 'postgres', keys: 'varied', load: { ...load(overrides.postgresRps ?? 2_400, 20, 60), storeCpuMsPerRequest: 0.1 } },
        { store: 'sqlite', keys: 'hot', load: load(4_000, 8, 30) },
        { store: 'postgres', keys: 'hot', load: { ...load(1_000, 50, 200), storeCpuMsPerRequest: 0.12 } },
      ],
    },
    binary: {
      sizeMb: 130,
      buildSec: 4,
      coldStartsMs: [100, 110, 120],
      coldStartMs: overrides.coldStart ?? 110,
      processes: 2,
      idleRssMb: 90,
      loadRssMb: 140,
      batchRssMb: 150,
    },
    seconds: 100,
  };
}

describe('bench report', () => {
  it('passes every target when the numbers are within them', () => {
    expect(targets(results()).filter((t) => !t.pass)).toEqual([]);
    expect(renderReport(results())).toContain('13 of 13 targets pass.');
  });

  it('states the one-process bound of detect/bare and the WORKERS=1 row', () => {
    // bare costs 0.1 ms of CPU per request (1000 / 10,000 req/s), analysis 0.1 ms: at best 0.5.
    expect(singleProcessBound(results())).toBeCloseTo(0.5, 6);
    const report = renderReport(results());
    expect(report).toContain('bare CPU / (bare CPU + detector.analyze p50) = 0.500.');
    expect(report).toContain('| 1 | 3,000 | 5.00 ms | 20.00 ms | 0.333 ms | 10,000 | 2.00 ms | 0.300 |');
    expect(report).toContain('`WORKERS=auto`: 2 processes on one port here');
    expect(report).toContain('Skipped: ../shared/data is not present.');
  });

  it('fails exactly the targets that are missed', () => {
    const failed = targets(results({ engine500: 0.3, detectRps: 2_000, p99: 40, coldStart: 400, postgresRps: 1_900 }))
      .filter((t) => !t.pass)
      .map((t) => t.name);
    expect(failed).toEqual([
      'engine.analyze 500 words p50',
      'detector.analyze 500 words p50',
      'HTTP detect/bare throughput, 64 connections',
      'HTTP detect p99, 64 connections',
      'PostgreSQL / SQLite throughput, varied keys, 64 connections',
      'binary cold start to first /health 200 (median)',
    ]);
    expect(renderReport(results({ p99: 40 }))).toContain('| HTTP detect p99, 64 connections | <= 25 ms | 40.00 ms | **FAIL** |');
  });
});

describe('bench report: storage', () => {
  it('shows both stores with PostgreSQL relative to SQLite, and drops the target when PostgreSQL was skipped', () => {
    const report = renderReport(results());
    expect(report).toContain('| PostgreSQL | 64 keys | 2,400 | 20.00 ms | 60.00 ms | 0.417 ms | 0.100 ms | 0.600 |');
    expect(report).toContain('| PostgreSQL | one hot key | 1,000 | 50.00 ms | 200.0 ms | 1.00 ms | 0.120 ms | 0.250 |');
    expect(report).toContain('| PostgreSQL / SQLite throughput, varied keys, 64 connections | >= 0.50 | 0.600 | PASS |');
    const skipped = results();
    skipped.stores = {
      processes: 2,
      postgresSkipped: 'PostgreSQL is not installed',
      rows: skipped.stores.rows.filter((row) => row.store === 'sqlite'),
    };
    expect(targets(skipped).some((t) => t.name.startsWith('PostgreSQL'))).toBe(false);
    expect(renderReport(skipped)).toContain('PostgreSQL rows skipped: PostgreSQL is not installed.');
  });
});

describe('bench inputs', () => {
  it('generates the same corpus text every time, with the requested number of tokens', () => {
    expect(corpusText(500)).toBe(corpusText(500));
    expect(corpusText(500, 1)).not.toBe(corpusText(500));
    expect(corpusText(2_000).split(/\s+/)).toHaveLength(2_000);
  });

  it('spreads the requests over every key and every body', () => {
    const requests = detectRequests(Array.from({ length: 64 }, (_, i) => `ak_${i}`));
    expect(requests).toHaveLength(64);
    expect(new Set(requests.map((r) => r.headers['x-api-key'])).size).toBe(64);
    expect(new Set(requests.map((r) => r.body)).size).toBe(8);
    expect(detectRequests(['ak_one'])).toHaveLength(8);
  });

  it('escapes every non-ASCII character for the wrk body', () => {
    const json = asciiJson({ text: 'niño “¿qué?” 😀' });
    expect(json).toMatch(/^[\x20-\x7e]+$/);
    expect(JSON.parse(json)).toEqual({ text: 'niño “¿qué?” 😀' });
  });

  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([], 50)).toBeNaN();
  });
});
