/**
 * Single-mode latency with and without a concurrent batch of PDFs, over real HTTP on a free port:
 * `bun run bench/batch-latency.ts [--requests N] [--json]`. Issue 5's responsiveness numbers.
 */
import { parseArgs } from 'node:util';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { Detector } from '../src/detector/types';
import { extractPoolFor } from '../src/modules/batch';
import { createKey } from '../src/modules/keys';
import { openSqliteStore } from '../src/store/sqlite';
import { makePdf } from '../test/fixtures/make';

/** Sentences the generated texts cycle through (fixed, so every run measures the same work). */
const SENTENCES = [
  'The committee reviewed the annual report on Monday and asked for a clearer summary of the costs.',
  'Several teachers argued that the new schedule left too little time for reading in the afternoon.',
  'Por la mañana, el consejo escolar aprobó el presupuesto después de una discusión bastante larga.',
  'Data from the last three years suggest that attendance improves when classes start a little later.',
  'However, the council noted that transport costs would rise if the buses ran on two timetables.',
  'Students who kept a reading log wrote longer essays, although the difference was not significant.',
];

/** About `words` words of prose; `variant` rotates the starting sentence. */
export function benchText(words: number, variant = 0): string {
  const out: string[] = [];
  let count = 0;
  for (let i = variant; count < words; i++) {
    const sentence = SENTENCES[i % SENTENCES.length];
    out.push(sentence);
    count += sentence.split(' ').length;
  }
  return out.join(' ');
}

/** The p-th percentile (0-100) by nearest rank. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function fmt(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms.toFixed(1);
}

/** What to measure. */
export interface BatchLatencyOptions {
  /** Sequential single requests per phase. */
  requests: number;
  /** Words of each single-mode text. */
  textWords: number;
  /** Pages per PDF and PDFs per batch of the background load. */
  pdfPages: number;
  pdfsPerBatch: number;
  /** The loaded phase lasts until at least this many batches have completed. */
  minBatches: number;
  detector: Detector;
}

/** Latency summary of one phase, in ms. */
export interface Phase {
  n: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Both phases, and proof that the batch load really ran during the second one. */
export interface BatchLatencyReport {
  idle: Phase;
  duringBatch: Phase;
  batchLinesDuringPhase: number;
  batchesCompleted: number;
  pdfBytes: number;
  poolSize: number;
}

function phase(samples: number[]): Phase {
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  const at = (p: number) => percentile(samples, p);
  return { n: samples.length, mean, p50: at(50), p90: at(90), p99: at(99), max: Math.max(...samples) };
}

/** A PDF of `pages` pages of generated prose (about 450 words a page). */
export function benchPdf(pages: number): Uint8Array {
  const page = (i: number) => (benchText(450, i).match(/.{1,90}(\s|$)/g) ?? []).map((l) => l.trim()).join('\n');
  return makePdf(Array.from({ length: pages }, (_, i) => page(i)));
}

/** Runs both phases against a fresh in-memory app and returns the numbers. */
export async function measureBatchLatency(o: BatchLatencyOptions): Promise<BatchLatencyReport> {
  const config = loadConfig({ DATABASE_PATH: ':memory:', BOOTSTRAP_KEY: '0', PORT: '0' });
  const store = openSqliteStore(':memory:', { timeoutMs: config.storeTimeoutMs });
  const key = (await createKey(store.keys, { plan: 'enterprise' })).key;
  const app = createApp({ config, store, detector: o.detector });
  const pool = extractPoolFor(config);
  pool.prestart();
  app.listen({ port: 0, hostname: '127.0.0.1' });
  const url = `http://127.0.0.1:${app.server!.port}/api/detect`;
  const text = benchText(o.textWords, 1);
  const pdf = benchPdf(o.pdfPages);
  const single = async () => {
    const t0 = performance.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });
    if (response.status !== 200) throw new Error(`single request failed: ${response.status}`);
    await response.arrayBuffer();
    return performance.now() - t0;
  };
  let lines = 0;
  const batch = async () => {
    const form = new FormData();
    for (let i = 0; i < o.pdfsPerBatch; i++) form.append('files[]', new File([pdf as BlobPart], `doc${i}.pdf`));
    const response = await fetch(url, { method: 'POST', headers: { 'x-api-key': key }, body: form });
    if (response.status !== 200) throw new Error(`batch failed: ${response.status}`);
    for await (const chunk of response.body! as unknown as AsyncIterable<Uint8Array>) {
      for (const byte of chunk) if (byte === 10) lines++;
    }
  };
  try {
    await batch(); // warm-up: pdf.js loaded in every worker, first-call JIT paid
    for (let i = 0; i < 20; i++) await single();
    const idle: number[] = [];
    for (let i = 0; i < o.requests; i++) idle.push(await single());

    let stop = false;
    let batchesCompleted = 0;
    const load = (async () => {
      while (!stop) {
        await batch();
        batchesCompleted++;
      }
    })();
    // Let the first batch's upload land and its extraction start before measuring.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const linesBefore = lines;
    const busy: number[] = [];
    // At least `requests` samples, and long enough to span whole batches: uploads, extraction and streaming.
    while (busy.length < o.requests || batchesCompleted < o.minBatches) busy.push(await single());
    const batchLinesDuringPhase = lines - linesBefore;
    stop = true;
    await load;
    return {
      idle: phase(idle),
      duringBatch: phase(busy),
      batchLinesDuringPhase,
      batchesCompleted,
      pdfBytes: pdf.length,
      poolSize: pool.size,
    };
  } finally {
    await app.stop(true);
    pool.close();
    await store.close();
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ args: Bun.argv.slice(2), options: { requests: { type: 'string' }, json: { type: 'boolean' } } });
  const { createDetector } = await import('../src/detector');
  const options = {
    requests: Number(values.requests ?? 500),
    textWords: 500,
    pdfPages: 30,
    pdfsPerBatch: 10,
    minBatches: 3,
    detector: await createDetector(),
  };
  const report = await measureBatchLatency(options);
  if (values.json) console.log(JSON.stringify({ options: { ...options, detector: undefined }, ...report }));
  else {
    console.log(
      `single mode, ${options.textWords}-word text, ${options.requests} sequential requests over HTTP ` +
        `(pool of ${report.poolSize} worker(s))`,
    );
    for (const [name, p] of [
      ['idle', report.idle],
      ['during PDF batches', report.duringBatch],
    ] as const) {
      const cells = [`p50 ${fmt(p.p50)}`, `p90 ${fmt(p.p90)}`, `p99 ${fmt(p.p99)}`, `max ${fmt(p.max)}`, `mean ${fmt(p.mean)}`];
      console.log(`  ${name.padEnd(20)} ${cells.join(' ms  ')} ms  (n ${p.n})`);
    }
    console.log(
      `  background: batches of ${options.pdfsPerBatch} PDFs x ${options.pdfPages} pages (${Math.round(report.pdfBytes / 1024)} KB each), ` +
        `${report.batchesCompleted} completed, ${report.batchLinesDuringPhase} NDJSON lines streamed during the measured phase`,
    );
  }
}
