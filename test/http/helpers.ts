/** Test helpers: an in-memory app with the real detector, keys, and request shortcuts. */
import { createApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import type { Detector } from '../../src/detector/types';
import { createJsonLogger } from '../../src/http/logger';
import { createKey, findActiveKey } from '../../src/modules/keys';
import type { PlanId } from '../../src/plans';
import { createDetector } from '../../src/detector';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite';
import type { ApiKey } from '../../src/store/types';

const shared: Detector = await createDetector();
/** The real detector (engine + explanations), loaded once per test process. */
export function detector(): Detector {
  return shared;
}

/**
 * MEMORY_LIMIT_MB of the apps built in the test process: their extraction pool stops its files when the
 * PROCESS's RSS passes it, and this process is the whole suite's (`bun test` runs every file in it: an
 * earlier file's engines and data count). The memory governor and the RSS guard are tested on server
 * processes of their own (test/faults/, test/memory-governor.test.ts).
 */
export const IN_PROCESS_MEMORY_LIMIT_MB = String(64 * 1024);

/** An app on a fresh SQLite store, its log lines, and a key maker (the secret plus the stored row). */
export function makeApp(env: Record<string, string> = {}, store: SqliteStore = freshStore()) {
  const config: Config = loadConfig({ DATABASE_PATH: ':memory:', BOOTSTRAP_KEY: '0', MEMORY_LIMIT_MB: IN_PROCESS_MEMORY_LIMIT_MB, ...env });
  const logs: string[] = [];
  const app = createApp({ config, store, detector: detector(), logger: createJsonLogger((line) => logs.push(line)) });
  const newKey = (plan: PlanId = 'free', name?: string) => keyOn(store, plan, name);
  return { app, store, db: store.db, config, logs, newKey };
}

/** A migrated SQLite store (in memory by default). */
export function freshStore(path = ':memory:'): SqliteStore {
  return openSqliteStore(path, { timeoutMs: 3000 });
}

/** A new key on `store`: its secret (`key`), id, and the stored row. */
export async function keyOn(store: Pick<SqliteStore, 'keys'>, plan: PlanId = 'free', name?: string) {
  const created = await createKey(store.keys, { plan, name });
  const row = (await findActiveKey(store.keys, created.key)) as ApiKey;
  return { ...created, row };
}

/** Options of `call`. */
export interface CallOptions {
  method?: string;
  key?: string | null;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
}

/** Sends a request through app.handle (no network). */
export function call(app: { handle(r: Request): Promise<Response> }, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['x-api-key'] = options.key;
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  return app.handle(
    new Request(`http://localhost${path}`, { method: options.method ?? (body !== undefined ? 'POST' : 'GET'), headers, body }),
  );
}

/** A text of exactly `n` words (one word definition: letter runs). */
export function words(n: number, word = 'alpha'): string {
  return `${Array.from({ length: n }, (_, i) => `${word}${String.fromCharCode(97 + (i % 26))}`).join(' ')}.`;
}

/** Realistic English prose (60 words). */
export const PROSE =
  'In today’s fast-paced world, it is important to note that technology plays a crucial role in our daily lives. ' +
  'Moreover, it offers numerous benefits that enhance productivity and foster innovation across many industries. ' +
  'Furthermore, by leveraging these tools, organizations can streamline their operations and unlock new opportunities. ' +
  'Ultimately, embracing this transformation is essential for long-term success in a competitive landscape.';
