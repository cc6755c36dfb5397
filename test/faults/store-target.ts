/**
 * One database for the charging fault suites (issues 33 and 40), SQLite or PostgreSQL: the servers'
 * environment, how the test reads it, and a probe that watches the charge holds and locks them (the
 * servers' next write to a hold waits for the lock: a controlled stall of the store, at a moment the
 * test chooses from what the store shows, rather than luck).
 */
import { expect } from 'bun:test';
import { Database } from 'bun:sqlite';
import { SQL } from 'bun';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { PostgresCluster } from '../fixtures/postgres';
import { childrenOf, runCommand, startServerProcess, type ServerProcess } from '../fixtures/server-process';

const ROOT = join(import.meta.dir, '../..');

/**
 * The test's own connection to the charge holds, opened ahead so that it acts within a millisecond:
 * it watches the holds, and locks them (the server's next write to a hold waits for the lock).
 */
export interface HoldsProbe {
  /** Resolves once a hold matches `where` (SQL over charge_holds), looking every millisecond. */
  until(where: string): Promise<void>;
  /** Takes the lock, once a hold matches `where` when given. */
  take(where?: string): Promise<void>;
  /** Releases the lock (if taken) and closes the connection; a second call does nothing. */
  release(): Promise<void>;
}

/** A database the fault suite's servers share. */
export interface Target {
  dialect: 'sqlite' | 'postgres';
  env: Record<string, string>;
  run(sql: string): Promise<Array<Record<string, unknown>>>;
  /** A probe of the charge holds on a connection of its own. */
  probe(): Promise<HoldsProbe>;
}

/** A SQLite file `name`.sqlite in `dir`. */
export function sqliteTarget(dir: string, name: string, env: Record<string, string> = {}): Target {
  const path = join(dir, `${name}.sqlite`);
  return {
    dialect: 'sqlite',
    env: { DATABASE_PATH: path, BOOTSTRAP_KEY: '0', ...env },
    async run(sql) {
      const db = new Database(path);
      // The server may be writing (a detection's charge, a checkpoint): wait for it as its own connections do.
      db.exec('PRAGMA busy_timeout = 5000');
      try {
        return db.query(sql).all() as Array<Record<string, unknown>>;
      } finally {
        db.close();
      }
    },
    async probe() {
      const db = new Database(path);
      db.exec('PRAGMA busy_timeout = 5000');
      let state: 'open' | 'taken' | 'closed' = 'open';
      const until = async (where: string) => {
        while (!db.query(`SELECT 1 FROM charge_holds WHERE ${where}`).get()) await Bun.sleep(1);
      };
      return {
        until,
        async take(where) {
          if (where) await until(where);
          db.exec('BEGIN IMMEDIATE');
          state = 'taken';
        },
        async release() {
          if (state === 'taken') db.exec('COMMIT');
          if (state !== 'closed') db.close();
          state = 'closed';
        },
      };
    },
  };
}

/** A fresh database `name` on `cluster`. */
/** Tries of a harness statement whose connection closed (store-target's `run`). */
const RUN_ATTEMPTS = 3;

export async function postgresTarget(cluster: PostgresCluster, name: string, env: Record<string, string> = {}): Promise<Target> {
  const url = await cluster.createDatabase(name);
  return {
    dialect: 'postgres',
    env: { DATABASE_URL: url, BOOTSTRAP_KEY: '0', ...env },
    async run(sql) {
      // A connection of its own per statement; one refused or closed while connecting (three servers' pools on one
      // cluster, seen once in a whole-suite run, which then failed the file's later tests) is tried again.
      for (let attempt = 1; ; attempt++) {
        const client = new SQL({ url, max: 1 });
        try {
          return [...(await client.unsafe(sql))];
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (attempt >= RUN_ATTEMPTS || code !== 'ERR_POSTGRES_CONNECTION_CLOSED') throw error;
          await Bun.sleep(200);
        } finally {
          await client.close();
        }
      }
    },
    async probe() {
      const client = new SQL({ url, max: 1 });
      const conn = await client.reserve();
      await conn.unsafe('SELECT 1');
      let state: 'open' | 'taken' | 'closed' = 'open';
      const until = async (where: string) => {
        while ((await conn.unsafe(`SELECT 1 FROM charge_holds WHERE ${where}`)).length === 0) await Bun.sleep(1);
      };
      return {
        until,
        async take(where) {
          if (where) await until(where);
          await conn.unsafe('BEGIN');
          await conn.unsafe('SELECT 1 FROM charge_holds FOR UPDATE');
          state = 'taken';
        },
        async release() {
          const was = state;
          state = 'closed';
          if (was === 'closed') return;
          if (was === 'taken') await conn.unsafe('COMMIT');
          conn.release();
          await client.close();
        },
      };
    },
  };
}

/** Starts `serve` on `target` (WORKERS=1 unless `env` says otherwise); `servers` keeps it for the cleanup. */
export async function startOn(target: Target, servers: Set<ServerProcess>, env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await startServerProcess(['bun', 'src/main.ts', 'serve'], { cwd: ROOT, env: { WORKERS: '1', ...target.env, ...env } });
  servers.add(server);
  return server;
}

/** A new key of `plan` (enterprise by default) on `target`. */
export function createKeyOn(target: Target, plan = 'enterprise'): string {
  const created = runCommand(['bun', 'src/main.ts', 'keys', 'create', '--plan', plan], ROOT, target.env);
  expect(created.code).toBe(0);
  return created.out.trim().split('\n').at(-1)!;
}

/** Words charged on `target` this month, every key. */
export const usedOn = async (target: Target) =>
  Number((await target.run('SELECT COALESCE(SUM(words_used), 0) AS used FROM monthly_usage'))[0].used);

/** Holds on `target` still held by an attempt (a stream or a calibration running, or one not swept yet). */
export const liveHoldsOn = async (target: Target) =>
  Number((await target.run("SELECT count(*) AS n FROM charge_holds WHERE attempt <> ''"))[0].n);

/**
 * Waits until no attempt holds a charge any more and the words charged stop moving (settlements
 * land just after a stream ends), or reach `expected`; the words charged then.
 */
export async function settledUseOn(target: Target, expected?: number): Promise<number> {
  for (let i = 0; i < 200 && (await liveHoldsOn(target)) > 0; i++) await Bun.sleep(50);
  let last = await usedOn(target);
  for (let i = 0; i < 40; i++) {
    await Bun.sleep(100);
    const now = await usedOn(target);
    if (now === last && (expected === undefined || now === expected)) return now;
    last = now;
  }
  return last;
}

/** CPU ticks (user + system) a process has used so far (Linux /proc): which of a server's processes is scoring. */
export function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** A server of two processes sharing the target (WORKERS=2), once its worker listens, and the pids of both. */
export async function startTwoOn(target: Target, servers: Set<ServerProcess>): Promise<{ server: ServerProcess; pids: number[] }> {
  const server = await startOn(target, servers, { WORKERS: '2' });
  await server.waitFor(/"event":"worker_listening"/);
  return { server, pids: [server.pid, ...childrenOf(server.pid)] };
}

/**
 * Kills every server a fault file started (continuing a stopped one first: a stopped process cannot die
 * of SIGKILL until it is continued), with its children, then the PostgreSQL cluster and the folder.
 */
export function tearDown(servers: Iterable<ServerProcess>, cluster: PostgresCluster | undefined, dir: string): void {
  for (const server of servers) {
    server.proc.kill('SIGCONT');
    for (const pid of childrenOf(server.pid)) process.kill(pid, 'SIGKILL');
    server.proc.kill('SIGKILL');
  }
  cluster?.destroy();
  rmSync(dir, { recursive: true, force: true });
}
