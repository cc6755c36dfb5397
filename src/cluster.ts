/**
 * WORKERS > 1: more server processes on the same port. Bun listens with SO_REUSEPORT (Elysia's
 * default), so the kernel spreads connections over every process listening on the port; each
 * process has its own engine and SQLite connection, and the quota stays exact because every
 * charge is one conditional statement under SQLite's write lock (test/http/concurrency.test.ts).
 *
 * The primary (the process started as `serve`) migrates the database, listens, then starts
 * WORKERS - 1 copies of this program with WORKER_ENV set. It restarts a worker that dies and
 * stops them all on shutdown; a worker also exits on its own if the primary disappears. Each
 * worker has an IPC channel to its primary (Bun.spawn's `ipc`): the metrics use it to show one
 * view of every process (src/metrics/cluster.ts).
 */
import type { Subprocess } from 'bun';
import type { Logger } from './http/logger';

/** Set in the environment of worker processes. */
export const WORKER_ENV = 'AI_DETECTOR_WORKER';
/** Wait before restarting a worker that exited; doubled for each quick failure in a row, up to MAX_RESTART_DELAY_MS. */
export const RESTART_DELAY_MS = 1000;
const MAX_RESTART_DELAY_MS = 30_000;
/** A worker that lived this long was healthy: its next restart waits RESTART_DELAY_MS again. */
const HEALTHY_LIFETIME_MS = 10_000;
/** How often a worker checks that its primary is still there. */
const ORPHAN_CHECK_MS = 1000;

/** True in a process the primary started. */
export function isWorkerProcess(env: Record<string, string | undefined> = process.env): boolean {
  return env[WORKER_ENV] === '1';
}

/** True inside a `bun build --compile` binary (its entry script lives in Bun's embedded file system). */
export function isCompiled(): boolean {
  return Bun.main.startsWith('/$bunfs/') || Bun.main.includes('~BUN');
}

/** The command line that runs this program again: the compiled binary itself, or bun with the entry script. */
export function selfCommand(args: string[]): string[] {
  return isCompiled() ? [process.execPath, ...args] : [process.execPath, Bun.main, ...args];
}

/** The worker processes of a primary. */
export interface WorkerSet {
  /** Process ids of the running workers. */
  pids(): number[];
  /** Sends a message to a running worker over its IPC channel; false when there is no such worker. */
  send(pid: number, message: unknown): boolean;
  /** Sends `signal` to every worker and resolves when all have exited; no worker is restarted after this. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Options of startWorkers. */
export interface WorkerOptions {
  /** Workers to start (the primary itself is not counted). */
  count: number;
  /** The port the primary listens on (the real one when PORT=0). */
  port: number;
  logger: Logger;
  /** How to start one worker (default: this program's `serve`). */
  command?: string[];
  /** A message a worker sent over its IPC channel. */
  onMessage?: (message: unknown, pid: number) => void;
  /** A worker exited (before it is restarted). */
  onExit?: (pid: number) => void;
}

/** Starts `count` worker processes serving on `port`, restarting any that exits before stop(). */
export function startWorkers({ count, port, logger, command = selfCommand(['serve']), onMessage, onExit }: WorkerOptions): WorkerSet {
  const running = new Map<number, Subprocess>();
  const quickFailures = new Map<number, number>();
  let stopping = false;
  const start = (index: number) => {
    const startedAt = performance.now();
    const proc = Bun.spawn(command, {
      env: { ...process.env, [WORKER_ENV]: '1', PORT: String(port), WORKERS: '1' },
      stdin: 'ignore',
      stdout: 'inherit',
      stderr: 'inherit',
      ipc: (message, child) => onMessage?.(message, child.pid),
    });
    running.set(index, proc);
    void proc.exited.then((code) => {
      if (running.get(index) === proc) running.delete(index);
      onExit?.(proc.pid);
      if (stopping) return;
      // A worker that cannot start (bad file permissions, a full disk) is retried ever more slowly.
      const failures = performance.now() - startedAt < HEALTHY_LIFETIME_MS ? (quickFailures.get(index) ?? 0) + 1 : 1;
      quickFailures.set(index, failures);
      const delayMs = Math.min(MAX_RESTART_DELAY_MS, RESTART_DELAY_MS * 2 ** (failures - 1));
      logger.error('worker_exited', { index, pid: proc.pid, code, restartInMs: delayMs });
      setTimeout(() => {
        if (!stopping) start(index);
      }, delayMs);
    });
  };
  for (let index = 1; index <= count; index++) start(index);
  return {
    pids: () => [...running.values()].map((proc) => proc.pid),
    send(pid, message) {
      const proc = [...running.values()].find((p) => p.pid === pid);
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return false;
      try {
        proc.send(message);
        return true;
      } catch {
        // The channel closed between the check and the send: the worker is exiting.
        return false;
      }
    },
    async stop(signal = 'SIGTERM') {
      stopping = true;
      const procs = [...running.values()];
      for (const proc of procs) proc.kill(signal);
      await Promise.all(procs.map((proc) => proc.exited));
    },
  };
}

/** In a worker: the IPC channel to the primary, or null when this process was not started by startWorkers. */
export function primaryChannel(): { send(message: unknown): void; onMessage(handler: (message: unknown) => void): void } | null {
  if (!isWorkerProcess() || typeof process.send !== 'function') return null;
  return {
    send(message) {
      try {
        process.send?.(message);
      } catch {
        // The primary is gone; watchPrimary ends this process shortly.
      }
    },
    onMessage: (handler) => void process.on('message', handler),
  };
}

/** In a worker: calls `onOrphaned` once the primary is gone (a primary killed with SIGKILL cannot stop its workers). */
export function watchPrimary(onOrphaned: () => void): void {
  const primary = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === primary) return;
    clearInterval(timer);
    onOrphaned();
  }, ORPHAN_CHECK_MS);
  timer.unref();
}
