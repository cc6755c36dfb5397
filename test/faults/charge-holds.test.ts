/**
 * Issue 33 items 1, 2 and 4: the charge holds of issue 29 attacked through real server processes,
 * on SQLite (two processes sharing the file, WORKERS=2, where two processes matter) and on two
 * instances sharing one PostgreSQL. Before the fix, on b320dcc:
 * 1. a keyed batch cut after its first result, then another body under the same Idempotency-Key:
 *    200 and charged 0 (the hold's credit went to any body);
 * 2. the process streaming a batch stopped (SIGSTOP) past its lease: the others swept its hold and,
 *    once resumed, it went on delivering results charged to nobody; an instance whose clock ran
 *    30 s ahead swept the live holds of the others;
 * 4. every result read, the connection gone before the `complete` line: the retry with the same
 *    key and body ran again and was charged again.
 * Leases are HOLD_LEASE_MS=1500 here (renewed every 500 ms), so a stall of 3 s outlives one.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultWords, streamLines } from '../batch/helpers';
import { PROSE } from '../http/helpers';
import { POSTGRES_MISSING, startPostgres, warnIfMissing, type PostgresCluster } from '../fixtures/postgres';
import type { ServerProcess } from '../fixtures/server-process';
import {
  cpuTicks,
  createKeyOn,
  postgresTarget,
  settledUseOn,
  sqliteTarget,
  startOn,
  startTwoOn,
  usedOn,
  type Target,
  tearDown,
} from './store-target';

setDefaultTimeout(SUITE_TIMEOUT_MS);
warnIfMissing('test/faults/charge-holds.test.ts');

const dir = mkdtempSync(join(tmpdir(), 'fault-charge-holds-'));
const LEASE_MS = 1500;
/** A stall that outlives a lease and the sweep after it (the others tend every LEASE_MS / 3). */
const STALL_MS = 2 * LEASE_MS + 500;
let cluster: PostgresCluster | undefined;
const servers = new Set<ServerProcess>();
afterAll(() => tearDown(servers, cluster, dir));

/** `n` distinct files of 4,410 words, or `repeat` / 70 times that (`tag` keeps two batches' files apart). */
const filesOf = (n: number, tag: string, repeat = 70) =>
  Array.from({ length: n }, (_, i) => `File ${tag} ${i + 1}. ${PROSE} `.repeat(repeat));

/** A single text of ~120,000 words (880 KB): its analysis lasts long enough to stop its process in the middle of it. */
const LONG_TEXT = JSON.stringify({ text: `${PROSE} `.repeat(2000) });
/** The servers take texts of up to 1 Mi characters (512 Ki by default since issue 40), so LONG_TEXT is scored. */
const MAX_TEXT_CHARS = String(1024 * 1024);

type Line = { type: string; index?: number; words?: number; code?: string; total?: number };

function post(server: ServerProcess, key: string, files: string[], idempotencyKey?: string, signal?: AbortSignal) {
  const headers: Record<string, string> = { 'x-api-key': key };
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
  const form = new FormData();
  files.forEach((text, i) => form.append('files[]', new File([text], `f${i}.txt`)));
  return fetch(`${server.base}/v1/detect`, { method: 'POST', headers, body: form, signal });
}

/** Reads a batch stream line by line, calling `onLine` after each (it may pause or hang up); the lines received. */
const readLines = (response: Response, onLine?: (line: Line, lines: Line[]) => Promise<void> | void) => streamLines<Line>(response, onLine);
const wordsOf = resultWords;

/** Item 1 on one dialect: `second` is where the other body is sent (another instance on PostgreSQL). */
async function anotherBody(target: Target, first: ServerProcess, second: ServerProcess, key: string) {
  const before = await usedOn(target);
  const bodyA = filesOf(3, `${target.dialect}-a`);
  const hangUp = new AbortController();
  const cut = await readLines(await post(first, key, bodyA, 'one-key', hangUp.signal), (line) => {
    if (line.type === 'result') hangUp.abort();
  });
  const received = wordsOf(cut);
  expect(received).toBeGreaterThan(0);
  const afterCut = await settledUseOn(target);
  // Another body under the same key: refused, whether or not the first attempt's record is kept.
  const other = await post(second, key, filesOf(3, `${target.dialect}-b`), 'one-key');
  const otherBody = await other.text();
  const afterOther = await settledUseOn(target);
  console.log(
    `${target.dialect} another body under a used key: status ${other.status}, ` +
      `${wordsOf(
        otherBody
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
      )} words received, ` +
      `charged ${afterOther - afterCut} (first attempt: ${received} received, ${afterCut - before} charged)`,
  );
  expect(other.status).toBe(422);
  expect(JSON.parse(otherBody).error.code).toBe('idempotency_key_reused');
  // Results are counted before they are handed over: the cut attempt pays what was read, and at
  // most the one result the server had already sent when the hang-up reached it (3 equal files).
  expect(afterCut - before).toBeGreaterThanOrEqual(received);
  expect(afterCut - before).toBeLessThanOrEqual(received + received);
  expect(afterOther).toBe(afterCut);
  // The first body's retry still gets its credit: the whole batch, charged once in all.
  const retry = await readLines(await post(second, key, bodyA, 'one-key'));
  expect(retry.at(-1)).toEqual({ type: 'complete', total: 3 });
  expect(await settledUseOn(target, before + wordsOf(retry))).toBe(before + wordsOf(retry));
}

/** Item 4 on one dialect: every result read, the connection gone before its `complete` line, then the retry. */
async function cutBeforeComplete(target: Target, server: ServerProcess, key: string) {
  const before = await usedOn(target);
  const files = filesOf(4, `${target.dialect}-full`);
  const last = files.length - 1;
  // A long last file: the lock below is taken while it is being scored.
  files[last] = filesOf(1, `${target.dialect}-full-last`, 350)[0];
  const hangUp = new AbortController();
  let release: (() => Promise<void>) | null = null;
  const unlock = async () => {
    const held = release;
    release = null;
    await held?.();
  };
  const lines = await readLines(await post(server, key, files, 'all-read', hangUp.signal), async (line) => {
    if (line.type === 'progress' && line.index === last) {
      // The last file is being scored: the store write that comes with its result waits for this lock,
      // so the client can read every result and leave before the server is done with the stream.
      const probe = await target.probe();
      await probe.take();
      release = () => probe.release();
      setTimeout(() => void unlock(), 1000);
    }
    if (line.type === 'result' && line.index === last) {
      hangUp.abort();
      await Bun.sleep(300);
      await unlock();
    }
  });
  await unlock();
  const results = lines.filter((l) => l.type === 'result');
  expect(results).toHaveLength(files.length);
  const whole = wordsOf(lines);
  await settledUseOn(target);
  const retry = await post(server, key, files, 'all-read');
  const replayed = retry.headers.get('idempotent-replayed') === 'true';
  const again = (await retry.text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
  const charged = (await settledUseOn(target)) - before;
  console.log(
    `${target.dialect} every result read, hung up before complete (${lines.some((l) => l.type === 'complete') ? 'complete seen' : 'no complete'}): ` +
      `retry replayed ${replayed}, batch ${whole} words, charged ${charged}`,
  );
  expect(again.at(-1)).toEqual({ type: 'complete', total: files.length });
  expect(replayed).toBe(true);
  expect(charged).toBe(whole);
}

/**
 * Item 2: the process streaming a batch is stopped (SIGSTOP) after the first result for STALL_MS,
 * then continued; `pickServing` says which process serves the stream. Charged = received (at most one result more).
 */
async function stalledOwner(target: Target, server: ServerProcess, key: string, pids: number[]) {
  const before = await usedOn(target);
  const ticks = pids.map(cpuTicks);
  let stopped = 0;
  const lines = await readLines(await post(server, key, filesOf(14, `${target.dialect}-stall`)), async (line, all) => {
    if (line.type !== 'result' || all.filter((l) => l.type === 'result').length !== 1) return;
    // The process that scored it is the one that spent CPU since the request.
    const spent = pids.map((pid, i) => cpuTicks(pid) - ticks[i]);
    stopped = pids[spent.indexOf(Math.max(...spent))];
    process.kill(stopped, 'SIGSTOP');
    await Bun.sleep(STALL_MS);
    process.kill(stopped, 'SIGCONT');
  });
  const received = wordsOf(lines);
  const charged = (await settledUseOn(target)) - before;
  const errors = lines.filter((l) => l.type === 'error').map((l) => l.code);
  console.log(
    `${target.dialect} owner stopped ${STALL_MS} ms (lease ${LEASE_MS} ms): ${lines.filter((l) => l.type === 'result').length} results, ` +
      `${received} words received, charged ${charged}, error lines ${JSON.stringify(errors)}, last ${JSON.stringify(lines.at(-1))}`,
  );
  expect(stopped).toBeGreaterThan(0);
  // docs/batch.md: the result lines received, plus at most the one that was being handed over when
  // the process stopped (counted under the lease, its line not yet out). Alone this is exact every
  // time; once, under the whole suite on 2 cores, the one on its way was counted too.
  const oneFile = Math.max(...lines.filter((l) => l.type === 'result').map((l) => l.words ?? 0));
  expect(charged).toBeGreaterThanOrEqual(received);
  expect(charged).toBeLessThanOrEqual(received + oneFile);
  // Stopped with the stable code, before the end of the batch.
  expect(errors).toEqual(['hold_expired']);
  expect(lines.some((l) => l.type === 'complete')).toBe(false);
}

describe('charge holds on SQLite: two processes sharing the file (WORKERS=2)', () => {
  const target = sqliteTarget(dir, 'holds', { HOLD_LEASE_MS: String(LEASE_MS), MAX_TEXT_CHARS });
  let key = '';
  let server: ServerProcess;
  let pids: number[] = [];
  beforeAll(async () => {
    key = createKeyOn(target);
    ({ server, pids } = await startTwoOn(target, servers));
  }, 60_000);

  it('item 1: refuses another body under a used Idempotency-Key, and never credits it', () => anotherBody(target, server, server, key));

  it('item 2: a process stopped past its lease delivers no more under it', async () => {
    expect(pids).toHaveLength(2);
    await stalledOwner(target, server, key, pids);
  });

  it('item 4: replays a keyed batch whose every result was read, whatever happened to its last line', () =>
    cutBeforeComplete(target, server, key));
});

describe.if(!POSTGRES_MISSING)('charge holds on two instances sharing PostgreSQL, one of them 30 s ahead', () => {
  let target: Target;
  let key = '';
  let a: ServerProcess;
  let ahead: ServerProcess;
  beforeAll(async () => {
    cluster ??= startPostgres();
    target = await postgresTarget(cluster, 'holds', { HOLD_LEASE_MS: String(LEASE_MS), MAX_TEXT_CHARS });
    key = createKeyOn(target);
    // The second instance's clock runs 30 s ahead (CLOCK_OFFSET_MS): it tends the holds every 500 ms all along.
    [a, ahead] = await Promise.all([startOn(target, servers), startOn(target, servers, { CLOCK_OFFSET_MS: '30000' })]);
  }, 60_000);

  it('item 1: refuses another body under a used Idempotency-Key on the other instance', () => anotherBody(target, a, ahead, key));

  it('item 2: an instance whose clock runs 30 s ahead does not sweep the live holds of the others', async () => {
    const before = await usedOn(target);
    // Files long enough (17,640 words) that the batch is scored over more than a second, and a slow
    // client: the instance ahead tends the holds (every 500 ms) several times while it streams.
    const lines = await readLines(await post(a, key, filesOf(6, 'skew', 280)), async (line) => {
      if (line.type === 'result') await Bun.sleep(400);
    });
    const received = wordsOf(lines);
    const charged = (await settledUseOn(target)) - before;
    console.log(
      `postgres, another instance 30 s ahead: ${received} words received, charged ${charged}, last ${JSON.stringify(lines.at(-1))}`,
    );
    expect(lines.at(-1)).toEqual({ type: 'complete', total: 6 });
    expect(charged).toBe(received);
  });

  it('item 2: an instance stopped past its lease delivers no more under it', () => stalledOwner(target, a, key, [a.pid]));

  it('item 2: a single text whose instance stalls past its lease during the analysis is not answered, and not charged', async () => {
    const before = await usedOn(target);
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    const answer = fetch(`${a.base}/v1/detect`, { method: 'POST', headers, body: LONG_TEXT });
    // Stopped once its charge is committed: the analysis of 120,000 words is running.
    for (let i = 0; i < 400 && (await usedOn(target)) === before; i++) await Bun.sleep(5);
    expect(await usedOn(target)).toBeGreaterThan(before);
    a.proc.kill('SIGSTOP');
    await Bun.sleep(STALL_MS);
    a.proc.kill('SIGCONT');
    const response = await answer;
    const body = (await response.json()) as { words?: number; error?: { code: string } };
    const charged = (await settledUseOn(target, before)) - before;
    console.log(
      `postgres single text, instance stopped ${STALL_MS} ms mid-analysis: ${response.status} ${body.error?.code ?? ''}, charged ${charged}`,
    );
    expect([response.status, body.error?.code, charged]).toEqual([503, 'hold_expired', 0]);
    expect(response.headers.get('retry-after')).toBe('1');
  });

  it('item 4: replays a keyed batch whose every result was read, whatever happened to its last line', () =>
    cutBeforeComplete(target, a, key));
});
