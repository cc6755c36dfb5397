/**
 * Benchmark child processes: stdout/stderr go to a log file (as a service manager would take
 * them), readiness is the first 200 on /health, and every process is stopped for sure on exit.
 */
import type { Subprocess } from 'bun';
import { freePort } from '../test/fixtures/server-process';

/** A server the bench started. */
export interface BenchServer {
  proc: Subprocess;
  pid: number;
  base: string;
  /** Milliseconds from spawn to the first 200 on /health. */
  readyMs: number;
  stop(): Promise<void>;
}

const running = new Set<Subprocess>();
let hooked = false;

function killAll(): void {
  for (const proc of running) proc.kill('SIGKILL');
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      killAll();
      process.exit(130);
    });
  }
}

/** Spawns `command` on a free port with `env`, waits for /health to answer 200 (polled every ms). */
export async function startBenchServer(
  command: string[],
  env: Record<string, string>,
  logFile: string,
  cwd?: string,
): Promise<BenchServer> {
  hookExit();
  const port = freePort();
  const t0 = performance.now();
  const proc = Bun.spawn(command, {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), BOOTSTRAP_KEY: '0', ...env },
    stdin: 'ignore',
    stdout: Bun.file(logFile),
    stderr: Bun.file(`${logFile}.err`),
  });
  running.add(proc);
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 3_000);
      await proc.exited;
      clearTimeout(timer);
    }
    running.delete(proc);
  };
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${command.join(' ')} exited ${proc.exitCode}: ${await Bun.file(`${logFile}.err`).text()}`);
    if (performance.now() - t0 > 30_000) {
      await stop();
      throw new Error(`${command.join(' ')} not ready after 30 s`);
    }
    try {
      const r = await fetch(`${base}/health`);
      if (r.status === 200) return { proc, pid: proc.pid, base, readyMs: performance.now() - t0, stop };
    } catch {
      // not listening yet
    }
    await Bun.sleep(1);
  }
}

/** VmRSS of a process in MB, from /proc/<pid>/status. */
export async function rssMb(pid: number): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/** VmRSS of a process and its children (the server's WORKERS processes) in MB. */
export async function treeRssMb(pid: number): Promise<number> {
  const pids = [pid, ...(await childPids(pid))];
  const sizes = await Promise.all(pids.map((p) => rssMb(p).catch(() => 0)));
  return sizes.reduce((a, b) => a + b, 0);
}

/** Samples treeRssMb(pid) every `everyMs` until `until` settles; resolves with the peak. */
export async function peakRss(pid: number, until: Promise<unknown>, everyMs = 100): Promise<number> {
  let peak = await treeRssMb(pid);
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    peak = Math.max(peak, await treeRssMb(pid));
    await Bun.sleep(everyMs);
  }
  return Math.max(peak, await treeRssMb(pid));
}

/** Listening TCP sockets owned by our child processes that are still alive (should be none at the end). */
export function leakedListeners(): string[] {
  const ss = Bun.which('ss');
  if (!ss) return [...running].map((p) => `pid ${p.pid} (still tracked; ss not installed)`);
  const out = Bun.spawnSync([ss, '-ltnp']).stdout.toString();
  return [...running].filter((p) => out.includes(`pid=${p.pid},`)).map((p) => `pid ${p.pid}`);
}

/** CPU time (user + system, all threads) a process has used so far, in ms, from /proc/<pid>/stat. */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await Bun.file(`/proc/${pid}/stat`).text();
  // Fields after the command name (which may contain spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
  return (ticks / CLOCK_TICKS) * 1000;
}

/** Child process ids of `pid` (the server's WORKERS processes), from /proc/<pid>/task/<pid>/children. */
export async function childPids(pid: number): Promise<number[]> {
  const text = await Bun.file(`/proc/${pid}/task/${pid}/children`)
    .text()
    .catch(() => '');
  return text.split(' ').filter(Boolean).map(Number);
}

/** Resolves once `pid` has `count` child processes (a server's workers start after it answers). */
export async function waitForChildren(pid: number, count: number): Promise<void> {
  while ((await childPids(pid)).length < count) await Bun.sleep(50);
}

/** CPU time of a server and its worker processes, in ms. */
export async function treeCpuMs(pid: number): Promise<number> {
  const pids = [pid, ...(await childPids(pid))];
  const times = await Promise.all(pids.map((p) => cpuMs(p).catch(() => 0)));
  return times.reduce((a, b) => a + b, 0);
}

/** Kernel clock ticks per second (USER_HZ); 100 on every Linux we target. */
const CLOCK_TICKS = 100;
