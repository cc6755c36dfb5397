/**
 * Memory soak: a flood of large single texts (JSON mode) against one server process, its RSS
 * sampled from /proc every 500 ms. Exits 1 if the peak passes the bound. Too long and too noisy
 * for `bun test` on a shared 2-core machine (docs/faults.md), so it is run by hand:
 *
 *   bun run soak:texts                       # 60 s, 4 clients, 500 KB texts (a text may have 512 Ki characters), bound 1024 MB
 *   SOAK_SECONDS=600 SOAK_CLIENTS=8 bun run soak:texts
 *
 * Every key has its plan's monthly quota, so the flood rotates over enough enterprise keys to
 * never be answered 429 (a 429 costs no analysis and would hide the memory under test).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLANS } from '../src/plans';
import { runKeepAliveClients } from '../test/faults/fixtures/keepalive-clients';
import { runCommand, startServerProcess } from '../test/fixtures/server-process';
import { rssMb } from './proc';

const ROOT = join(import.meta.dir, '..');
const SAMPLE_MS = 500;
/** Requests one process answers per second at most (measured: ~17/s for 850 KB texts on 2 cores), for sizing the keys. */
const MAX_RATE = 40;

/** Options of soakTexts. */
export interface SoakOptions {
  seconds: number;
  clients: number;
  textBytes: number;
}

/** What a soak measured (RSS in MB). */
export interface SoakResult {
  answered: number;
  statuses: Record<number, number>;
  wordsPerText: number;
  seconds: number;
  startMb: number;
  peakMb: number;
  /** 3 s after the flood stopped. */
  idleMb: number;
  samples: number[];
}

/** A deterministic English-like text of `bytes` bytes: 12-word sentences over a small vocabulary. */
function largeText(bytes: number): string {
  const vocabulary = 'the report shows that our team can improve results when data and clear goals guide each step'.split(' ');
  let seed = 1;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const sentence = `${Array.from({ length: 12 }, () => vocabulary[Math.floor(next() * vocabulary.length)]).join(' ')}. `;
    parts.push(sentence);
    size += sentence.length;
  }
  return parts.join('').slice(0, bytes);
}

/** Floods a fresh server process (one, on a temporary database) with large texts for `seconds`, sampling its RSS. */
export async function soakTexts({ seconds, clients, textBytes }: SoakOptions): Promise<SoakResult> {
  const dir = mkdtempSync(join(tmpdir(), 'soak-texts-'));
  const env = { DATABASE_PATH: join(dir, 'soak.sqlite'), BOOTSTRAP_KEY: '0', WORKERS: '1' };
  const text = largeText(textBytes);
  const wordsPerText = text.split(' ').length;
  const keyCount = Math.max(1, Math.ceil((seconds * MAX_RATE * wordsPerText) / PLANS.enterprise.wordsPerMonth));
  const keys = Array.from(
    { length: keyCount },
    () => runCommand(['bun', 'src/main.ts', 'keys', 'create', '--plan', 'enterprise'], ROOT, env).out.trim().split('\n').at(-1)!,
  );
  const server = await startServerProcess(['bun', 'src/main.ts', 'serve'], { cwd: ROOT, env });
  try {
    const body = JSON.stringify({ text });
    let sent = 0;
    const request = () =>
      `POST /api/detect HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${keys[sent++ % keys.length]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const startMb = await rssMb(server.pid);
    let peakMb = startMb;
    const samples: number[] = [];
    const sampler = setInterval(async () => {
      const now = await rssMb(server.pid).catch(() => 0);
      peakMb = Math.max(peakMb, now);
      samples.push(Math.round(now));
    }, SAMPLE_MS);
    let stop!: () => void;
    const t0 = performance.now();
    const load = runKeepAliveClients({ port: server.port, clients, request, until: new Promise<void>((resolve) => (stop = resolve)) });
    await Bun.sleep(seconds * 1000);
    stop();
    const report = await load;
    clearInterval(sampler);
    const elapsed = (performance.now() - t0) / 1000;
    await Bun.sleep(3000);
    const idleMb = await rssMb(server.pid);
    return {
      answered: report.counts.answered,
      statuses: report.statuses,
      wordsPerText,
      seconds: elapsed,
      startMb,
      peakMb,
      idleMb,
      samples,
    };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const maxRssMb = Number(process.env.SOAK_MAX_RSS_MB ?? 1024);
  const options = {
    seconds: Number(process.env.SOAK_SECONDS ?? 60),
    clients: Number(process.env.SOAK_CLIENTS ?? 4),
    textBytes: Number(process.env.SOAK_TEXT_KB ?? 500) * 1024,
  };
  const result = await soakTexts(options);
  console.log(
    `${result.answered} texts of ${Math.round(options.textBytes / 1024)} KB (${result.wordsPerText} words) in ${result.seconds.toFixed(1)} s from ${options.clients} clients; statuses ${JSON.stringify(result.statuses)}`,
  );
  console.log(
    `RSS: start ${Math.round(result.startMb)} MB, peak ${Math.round(result.peakMb)} MB (bound ${maxRssMb} MB), 3 s after the flood ${Math.round(result.idleMb)} MB`,
  );
  console.log(`samples every ${SAMPLE_MS} ms: ${result.samples.join(' ')}`);
  if (result.peakMb > maxRssMb) {
    console.error(`FAIL: peak RSS ${Math.round(result.peakMb)} MB is over ${maxRssMb} MB`);
    process.exit(1);
  }
}
