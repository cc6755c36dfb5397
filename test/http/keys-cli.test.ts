import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runKeysCli } from '../../src/cli/keys';
import { hashKey } from '../../src/modules/keys';
import { call, freshStore, makeApp, PROSE } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const dir = mkdtempSync(join(tmpdir(), 'detector-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY_SHAPE = /^ak_[0-9A-Za-z]{32,}$/;

async function cli(store: ReturnType<typeof freshStore>, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runKeysCli(args, store, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

describe('keys CLI', () => {
  it('creates a key, prints it as the last line, stores only its hash and prefix', async () => {
    const store = freshStore();
    const db = store.db;
    const { code, out } = await cli(store, 'create', '--plan', 'premium', '--name', 'Editorial team');
    expect(code).toBe(0);
    const key = out.at(-1)!;
    expect(key).toMatch(KEY_SHAPE);
    const row = db.$client.query('SELECT * FROM api_keys').get() as Record<string, unknown>;
    expect(row).toMatchObject({
      plan: 'premium',
      name: 'Editorial team',
      key_hash: hashKey(key),
      prefix: key.slice(0, 11),
      status: 'active',
    });
    const dump = JSON.stringify(db.$client.query('SELECT * FROM api_keys').all());
    expect(dump.includes(key)).toBe(false);
  });

  it('generates distinct keys with at least 32 random base62 characters', async () => {
    const store = freshStore();
    const keys: string[] = [];
    for (let i = 0; i < 50; i++) keys.push((await cli(store, 'create', '--plan', 'free')).out.at(-1)!);
    expect(new Set(keys).size).toBe(50);
    for (const key of keys) expect(key.length).toBeGreaterThanOrEqual(35);
  });

  it('rejects an unknown plan or a missing command with exit code 2', async () => {
    const store = freshStore();
    expect(await cli(store, 'create', '--plan', 'gold')).toMatchObject({ code: 2 });
    expect(await cli(store, 'create')).toMatchObject({ code: 2 });
    expect(await cli(store, 'create', '--plan', 'free', '--bogus')).toMatchObject({ code: 2 });
    expect(await cli(store)).toMatchObject({ code: 2 });
    expect((await cli(store, 'frobnicate')).err.join('\n')).toContain('Usage');
    expect(await cli(store, 'help')).toMatchObject({ code: 0, out: [expect.stringContaining('keys create --plan')] });
  });

  it('lists keys with words used this month and status, never the secret', async () => {
    const store = freshStore();
    const { app } = makeApp({}, store);
    const key = (await cli(store, 'create', '--plan', 'essential', '--name', 'ci')).out.at(-1)!;
    expect((await call(app, '/api/detect', { key, json: { text: PROSE } })).status).toBe(200);
    const { code, out } = await cli(store, 'list');
    expect(code).toBe(0);
    expect(out[0].split(/\s+/)).toEqual(['ID', 'NAME', 'PLAN', 'PREFIX', 'WORDS_THIS_MONTH', 'STATUS']);
    expect(out[1].split(/\s+/)).toEqual(['1', 'ci', 'essential', key.slice(0, 11), '60', 'active']);
    expect(out.join('\n').includes(key)).toBe(false);
  });

  it('revokes by id or prefix; the key then gets 401', async () => {
    const store = freshStore();
    const { app } = makeApp({}, store);
    const first = (await cli(store, 'create', '--plan', 'free')).out.at(-1)!;
    const second = (await cli(store, 'create', '--plan', 'free')).out.at(-1)!;
    expect(await cli(store, 'revoke', first.slice(0, 11))).toMatchObject({ code: 0 });
    expect(await cli(store, 'revoke', '2')).toMatchObject({ code: 0 });
    for (const key of [first, second]) expect((await call(app, '/api/detect', { key, json: { text: PROSE } })).status).toBe(401);
    expect((await cli(store, 'list')).out.slice(1).every((line) => line.endsWith('revoked'))).toBe(true);
    expect(await cli(store, 'revoke', 'ak_nothing')).toMatchObject({ code: 1 });
    expect(await cli(store, 'revoke')).toMatchObject({ code: 2 });
  });

  it('reports usage by prefix', async () => {
    const store = freshStore();
    const { app } = makeApp({}, store);
    const key = (await cli(store, 'create', '--plan', 'trial')).out.at(-1)!;
    await call(app, '/api/detect', { key, json: { text: PROSE } });
    await call(app, '/api/detect', { key, json: { text: 'too short' } });
    const { code, out } = await cli(store, 'usage', key.slice(0, 8));
    expect(code).toBe(0);
    const text = out.join('\n');
    expect(text).toContain('plan trial');
    expect(text).toContain('Words this month: 60 of 10000 (9940 left)');
    expect(text).toContain('Calls: 1 of 500');
    expect(text).toContain('Requests recorded: 2');
  });

  it('says so when a key was already revoked, and lists the keys an ambiguous prefix matches', async () => {
    const store = freshStore();
    const first = (await cli(store, 'create', '--plan', 'free')).out.at(-1)!;
    await cli(store, 'create', '--plan', 'free');
    expect(await cli(store, 'revoke', '1')).toMatchObject({ code: 0, out: [`Revoked key #1 (${first.slice(0, 11)}).`] });
    const again = await cli(store, 'revoke', first.slice(0, 11));
    expect(again.code).toBe(0);
    expect(again.out[0]).toMatch(new RegExp(`^Key #1 \\(${first.slice(0, 11)}\\) was already revoked on \\d{4}-\\d\\d-\\d\\dT`));
    // `ak_` starts every key: both are named, revoked or not; nothing is "not found".
    const usage = await cli(store, 'usage', 'ak_');
    expect(usage.code).toBe(1);
    expect(usage.err[0]).toStartWith(`keys usage: "ak_" matches 2 keys: #1 ${first.slice(0, 11)} (revoked), #2 ak_`);
    expect(usage.err[0]).toEndWith('use the id or a longer prefix');
  });

  it('says in its help that revoke takes ONE key, and revokes nothing for a start several keys share', async () => {
    const store = freshStore();
    await cli(store, 'create', '--plan', 'free');
    await cli(store, 'create', '--plan', 'free');
    const help = (await cli(store, 'help')).out.join('\n');
    expect(help).toContain('revokes ONE key');
    expect(help).not.toContain('for all');
    expect(help).toContain('revokes nothing');
    const shared = await cli(store, 'revoke', 'ak_');
    expect(shared.code).toBe(1);
    expect(shared.err[0]).toStartWith('keys revoke: "ak_" matches 2 keys');
    expect((await cli(store, 'list')).out.slice(1).every((line) => line.endsWith('active'))).toBe(true);
  });

  it('runs as `bun run keys create` against DATABASE_PATH, key on the last stdout line', async () => {
    const env = { ...process.env, DATABASE_PATH: join(dir, 'cli', 'keys.sqlite') };
    const created = Bun.spawnSync(['bun', 'run', 'keys', 'create', '--plan', 'enterprise', '--name', 'ops'], {
      env,
      cwd: join(import.meta.dir, '../..'),
    });
    expect(created.exitCode).toBe(0);
    const key = created.stdout.toString().trimEnd().split('\n').at(-1)!;
    expect(key).toMatch(KEY_SHAPE);
    const listed = Bun.spawnSync(['bun', 'run', 'keys', 'list'], { env, cwd: join(import.meta.dir, '../..') });
    expect(listed.stdout.toString()).toContain('enterprise');
    expect(listed.stdout.toString()).not.toContain(key);
    const bad = Bun.spawnSync(['bun', 'src/main.ts', 'keys', 'list'], {
      env: { ...env, PORT: 'x' },
      cwd: join(import.meta.dir, '../..'),
    });
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr.toString()).toContain('Configuration error: PORT');
  });

  it('list, revoke and usage on a missing database exit 1 naming DATABASE_PATH and create nothing; create does create it', () => {
    const empty = join(dir, 'elsewhere');
    mkdirSync(empty);
    const run = (...args: string[]) =>
      Bun.spawnSync(['bun', join(import.meta.dir, '../../src/main.ts'), 'keys', ...args], {
        cwd: empty,
        env: { PATH: process.env.PATH ?? '' },
      });
    for (const args of [['list'], ['revoke', '1'], ['usage', 'ak_']]) {
      const result = run(...args);
      expect([args[0], result.exitCode]).toEqual([args[0], 1]);
      expect(result.stderr.toString().trim()).toBe(
        `keys ${args[0]}: there is no database at ${join(empty, 'data', 'detector.sqlite')} (DATABASE_PATH=./data/detector.sqlite). ` +
          'Run this where the server runs, or set DATABASE_PATH (or DATABASE_URL) to its database; nothing was created.',
      );
    }
    expect(run('help').exitCode).toBe(0);
    expect(readdirSync(empty)).toEqual([]);
    expect(run('create', '--plan', 'free').exitCode).toBe(0);
    expect(readdirSync(join(empty, 'data'))).toContain('detector.sqlite');
    expect(run('list').exitCode).toBe(0);
  });
});
