/**
 * The container files say the truth (issue 28): the image's health check follows PORT instead of a
 * fixed 3000 (run here with bash against a real server, as Docker runs it), compose.yaml's processes
 * fit PostgreSQL's 100 connections, and the docs name the binary where `bun run build` writes it and
 * a `docker run` whose volume is the image's database folder. (No Docker engine on the test machine:
 * the files are checked, the health-check command is run.)
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { POOL_MAX } from '../../src/store/postgres/client';
import { DEFAULT_OUTFILE } from '../../scripts/build';
import { detector, freshStore } from '../http/helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** PostgreSQL's defaults: max_connections and superuser_reserved_connections. */
const PG_MAX_CONNECTIONS = 100;
const PG_RESERVED = 3;

/** The exec-form command of the Dockerfile's HEALTHCHECK. */
function healthCommand(): string[] {
  const match = /^HEALTHCHECK[^\n]*\\\n\s*CMD (\[.*\])$/m.exec(read('Dockerfile'));
  if (!match) throw new Error('Dockerfile: no HEALTHCHECK ... CMD [...]');
  return JSON.parse(match[1]);
}

describe('Dockerfile health check', () => {
  const store = freshStore();
  const app = createApp({ config: loadConfig({ BOOTSTRAP_KEY: '0' }), store, detector: detector() });
  let port = 0;
  beforeAll(() => {
    app.listen({ port: 0, hostname: '127.0.0.1' });
    port = app.server!.port!;
  });
  afterAll(async () => {
    await app.stop();
    await store.close();
  });

  // Asynchronous: the server answering it runs in this process's event loop.
  const run = (env: Record<string, string>) =>
    Bun.spawn(healthCommand(), { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, stdout: 'pipe', stderr: 'pipe' }).exited;

  it('asks /health on the container’s PORT, not a fixed 3000', async () => {
    expect(healthCommand().join(' ')).not.toMatch(/\/3000\b/);
    expect(port).not.toBe(3000);
    expect(await run({ PORT: String(port) })).toBe(0);
  });

  it('fails when nothing answers on PORT', async () => {
    const closed = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    const free = closed.port;
    closed.stop(true);
    expect(await run({ PORT: String(free) })).not.toBe(0);
  });
});

describe('compose.yaml', () => {
  const compose = Bun.YAML.parse(read('compose.yaml')) as {
    services: { app: { environment: Record<string, string>; deploy: { replicas: number } } };
  };
  const app = compose.services.app;

  it('fixes WORKERS, so its connections do not grow with the host’s cores', () => {
    expect(app.environment.WORKERS).toMatch(/^\d+$/);
  });

  it('keeps replicas x WORKERS x pool, plus one keys command, under PostgreSQL’s 100 connections, also scaled to 5 as it says', () => {
    const workers = Number(app.environment.WORKERS);
    const budget = (replicas: number) => replicas * workers * POOL_MAX + POOL_MAX;
    expect(app.deploy.replicas).toBe(3);
    expect(budget(3)).toBe(56);
    const scaled = Number(/--scale app=(\d+)/.exec(read('compose.yaml'))![1]);
    expect(scaled).toBe(5);
    expect(budget(scaled)).toBeLessThanOrEqual(PG_MAX_CONNECTIONS - PG_RESERVED);
    // What WORKERS=auto would have asked for on an 8-core host: the reason it is fixed.
    expect(3 * 8 * POOL_MAX).toBeGreaterThan(PG_MAX_CONNECTIONS);
  });
});

describe('the docs name what exists', () => {
  it('call the binary where `bun run build` writes it', () => {
    const built = relative(ROOT, DEFAULT_OUTFILE);
    expect(built).toBe('dist/ai-detector');
    for (const file of ['README.md', 'docs/deploy.md']) {
      const text = read(file);
      expect(text).not.toMatch(/(^|[\s`])\.\/ai-detector\b/m);
      expect(text).toContain(`${built} keys`);
    }
  });

  it('show one `docker run` that starts the service with a first key, on the image’s database folder', () => {
    const deploy = read('docs/deploy.md');
    const line = deploy.split('\n').find((l) => l.startsWith('docker run '));
    expect(line).toBeDefined();
    const dbPath = /DATABASE_PATH=(\S+)/.exec(read('Dockerfile'))![1];
    expect(line).toContain(`:${dirname(dbPath)} `);
    expect(line).toContain('-e BOOTSTRAP_KEY=1');
    expect(line).toContain('-p 3000:3000');
    expect(deploy).toContain("docker logs ai-detector 2>&1 | grep -A2 'No API keys yet'");
  });
});
