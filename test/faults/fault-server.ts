/** A real server process for the fault suites: a fresh database, one enterprise key, WORKERS=1 unless told otherwise. */
import { expect } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand, startServerProcess, type ServerProcess } from '../fixtures/server-process.ts';

const ROOT = join(import.meta.dir, '..', '..');

/** A started server, its key, and how to stop it and remove its folder. */
export interface FaultServer {
  server: ServerProcess;
  key: string;
  /** `key` first, then the extra keys asked for (startFaultServer's `extraKeys`), all enterprise. */
  keys: string[];
  /** Its folder: the SQLite database is `db.sqlite` in it. */
  dir: string;
  /** Stops the server and deletes its database folder. */
  stop(): Promise<void>;
}

/** Creates a database in a temporary folder named after `name`, an enterprise key in it, and starts `serve` on it. */
export async function startFaultServer(name: string, env: Record<string, string> = {}, extraKeys = 0): Promise<FaultServer> {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const fullEnv = { DATABASE_PATH: join(dir, 'db.sqlite'), BOOTSTRAP_KEY: '0', WORKERS: '1', ...env };
  const keys: string[] = [];
  for (let i = 0; i <= extraKeys; i++) {
    const keyName = i === 0 ? name : `${name}-${i}`;
    const created = runCommand(['bun', 'run', 'src/main.ts', 'keys', 'create', '--plan', 'enterprise', '--name', keyName], ROOT, fullEnv);
    expect(created.code).toBe(0);
    keys.push(created.out.trim().split('\n').at(-1)!);
  }
  const key = keys[0];
  const server = await startServerProcess(['bun', 'run', 'src/main.ts', 'serve'], { cwd: ROOT, env: fullEnv });
  return {
    server,
    key,
    keys,
    dir,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
