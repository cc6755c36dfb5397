/** Binary section: build dist-style binary, cold start to the first 200 on /health, RSS idle and under load. */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBinary } from '../scripts/build';
import { runCommand } from '../test/fixtures/server-process';
import { benchPdf, detectRequests } from './files';
import { loadConfig } from '../src/config';
import { peakRss, startBenchServer, treeRssMb, waitForChildren } from './proc';
import { median } from './stats';
import { runWrk } from './wrk';

/** Cold starts measured (each on a fresh database: migrations included). */
const COLD_STARTS = 7;
/** Seconds the server sits idle before its idle RSS is read. */
const IDLE_SETTLE_MS = 1_000;

/** What the binary section measures. */
export interface BinaryResult {
  sizeMb: number;
  buildSec: number;
  coldStartsMs: number[];
  coldStartMs: number;
  /** Server processes (the default WORKERS=auto); the RSS figures are their sum. */
  processes: number;
  idleRssMb: number;
  loadRssMb: number;
  batchRssMb: number;
}

/** Builds the binary into a temp folder, copies it alone into an empty one, and measures it there. */
export async function benchBinary(): Promise<BinaryResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-binary-'));
  try {
    const built = await buildBinary({ outfile: join(dir, 'build', 'ai-detector') });
    mkdirSync(join(dir, 'run'));
    const binary = join(dir, 'run', 'ai-detector');
    copyFileSync(built.outfile, binary);
    const coldStartsMs: number[] = [];
    for (let i = 0; i < COLD_STARTS; i++) {
      const server = await startBenchServer(
        [binary],
        { DATABASE_PATH: join(dir, `cold${i}`, 'db.sqlite') },
        join(dir, `cold${i}.log`),
        join(dir, 'run'),
      );
      coldStartsMs.push(server.readyMs);
      await server.stop();
    }

    const env = { DATABASE_PATH: join(dir, 'db', 'db.sqlite') };
    const createKey = () => {
      const created = runCommand([binary, 'keys', 'create', '--plan', 'enterprise', '--name', 'bench'], dir, env);
      if (created.code !== 0) throw new Error(`keys create failed: ${created.err}`);
      return created.out.trim().split('\n').at(-1)!;
    };
    const keys = [createKey(), createKey(), createKey(), createKey()];
    const key = keys[0];
    const server = await startBenchServer([binary], env, join(dir, 'server.log'), join(dir, 'run'));
    try {
      // The default WORKERS=auto: measure once every worker process is up, and count them all.
      const processes = loadConfig({}).workers;
      await waitForChildren(server.pid, processes - 1);
      await Bun.sleep(IDLE_SETTLE_MS);
      const idleRssMb = await treeRssMb(server.pid);
      const load = runWrk({
        url: `${server.base}/api/detect`,
        requests: detectRequests(keys),
        connections: 64,
        seconds: 4,
      });
      const loadRssMb = await peakRss(server.pid, load);
      const load2 = await load;
      if (load2.errors > 0) throw new Error(`binary under load answered ${load2.errors} errors`);
      const form = new FormData();
      for (let i = 0; i < 8; i++) form.append('files[]', new File([benchPdf(10, 200 + i)], `doc${i}.pdf`));
      const batch = fetch(`${server.base}/api/detect`, { method: 'POST', headers: { 'x-api-key': key }, body: form }).then((r) => r.text());
      const batchRssMb = await peakRss(server.pid, batch, 20);
      return {
        sizeMb: Bun.file(binary).size / (1024 * 1024),
        buildSec: built.ms / 1000,
        coldStartsMs,
        coldStartMs: median(coldStartsMs),
        processes,
        idleRssMb,
        loadRssMb,
        batchRssMb,
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
