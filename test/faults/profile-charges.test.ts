/**
 * Issue 40 on calibration profiles, through real server processes, on SQLite (two processes sharing
 * the file, WORKERS=2) and on two instances sharing PostgreSQL:
 * 2. the process scoring a calibration stopped (SIGSTOP) past its charge's lease, then continued:
 *    on main it answered 201 with the profile stored and charged 0 (another process had swept and
 *    refunded the hold); now 503 hold_expired, no profile, nothing charged;
 * 5. 40 calibrations of one key at once: on main each passed the count at its start and all were
 *    stored (40 profiles); now the limit (20) is enforced at the insert, and the others get 409 and
 *    are charged nothing;
 * 8. GET, DELETE and list of profiles spend the `reads` bucket, not the detections'; a batch form's
 *    empty or file `calibration` is 400 (on main: ignored, scored and charged without the profile);
 *    another key's cached profile id costs a query like an unknown one (PostgreSQL, timed).
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { humanTexts } from '../../scripts/lib/human-texts';
import { MAX_CALIBRATIONS_PER_KEY } from '../../src/modules/calibrations';
import { POSTGRES_MISSING, startPostgres, warnIfMissing, type PostgresCluster } from '../fixtures/postgres';
import type { ServerProcess } from '../fixtures/server-process';
import { SUITE_TIMEOUT_MS } from '../timeout';
import {
  cpuTicks,
  createKeyOn,
  liveHoldsOn,
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
warnIfMissing('test/faults/profile-charges.test.ts');

const dir = mkdtempSync(join(tmpdir(), 'fault-profile-charges-'));
/** The lease of the charges here (renewed every 500 ms): a stall of 3.5 s outlives it and the sweep after it. */
const LEASE_MS = 1500;
let cluster: PostgresCluster | undefined;
const servers = new Set<ServerProcess>();
afterAll(() => tearDown(servers, cluster, dir));

/** Detections timed for each of the two kinds of id in item 8 (interleaved). */
const PAIRS = 1000;

/** The key's profiles, straight from the store. */
const profilesOn = async (target: Target) => Number((await target.run('SELECT count(*) AS n FROM calibrations'))[0].n);

function calibrate(server: ServerProcess, key: string, texts: string[], name = 'Notes') {
  return fetch(`${server.base}/v1/calibrations`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ name, texts }),
  });
}

/**
 * Item 2 on one store: a calibration of 5,000 texts (about 300,000 words, a second or more of
 * scoring); once its charge is committed, the process scoring it (of `pids`, the one spending CPU)
 * is stopped until another one has swept its hold, then continued.
 */
async function stalledCalibration(target: Target, server: ServerProcess, key: string, pids: number[]) {
  const before = await usedOn(target);
  const profiles = await profilesOn(target);
  const ticks = pids.map(cpuTicks);
  const answer = calibrate(server, key, humanTexts(5000, 11));
  for (let i = 0; i < 2000 && (await usedOn(target)) === before; i++) await Bun.sleep(2);
  const charged = (await usedOn(target)) - before;
  expect(charged).toBeGreaterThan(100_000);
  const spent = pids.map((pid, i) => cpuTicks(pid) - ticks[i]);
  const scoring = pids[spent.indexOf(Math.max(...spent))];
  process.kill(scoring, 'SIGSTOP');
  // Another process sweeps the hold once its lease is over: its words go back.
  for (let i = 0; i < 200 && (await liveHoldsOn(target)) > 0; i++) await Bun.sleep(50);
  const swept = (await liveHoldsOn(target)) === 0;
  process.kill(scoring, 'SIGCONT');
  const response = await answer;
  const body = (await response.json()) as { id?: string; error?: { code: string } };
  const after = (await settledUseOn(target, before)) - before;
  const made = (await profilesOn(target)) - profiles;
  console.log(
    `${target.dialect}: the process scoring a calibration (${charged} words charged) stopped past its lease: ` +
      `${response.status} ${body.error?.code ?? body.id}, profiles stored ${made}, charged ${after}`,
  );
  expect(swept).toBe(true);
  expect([response.status, body.error?.code, made, after]).toEqual([503, 'hold_expired', 0, 0]);
}

/** Item 5 on one store: 40 calibrations of one new key at once, spread over `targets` servers. */
async function concurrentCreates(target: Target, spread: ServerProcess[]) {
  const key = createKeyOn(target);
  const before = await usedOn(target);
  const profiles = await profilesOn(target);
  const texts = humanTexts(60, 21);
  const answers = await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      const response = await calibrate(spread[i % spread.length], key, texts, `Notes ${i}`);
      return { status: response.status, body: (await response.json()) as { error?: { code: string } } };
    }),
  );
  const made = answers.filter((a) => a.status === 201).length;
  const refused = answers.filter((a) => a.status === 409 && a.body.error?.code === 'calibration_limit_reached').length;
  const stored = (await profilesOn(target)) - profiles;
  const charged = (await settledUseOn(target)) - before;
  console.log(
    `${target.dialect}: 40 calibrations at once: ${made} answered 201, ${refused} 409, ${stored} profiles stored, charged ${charged}`,
  );
  expect(stored).toBe(MAX_CALIBRATIONS_PER_KEY);
  expect([made, refused]).toEqual([MAX_CALIBRATIONS_PER_KEY, 40 - MAX_CALIBRATIONS_PER_KEY]);
  // Each profile paid its words once; the refused ones nothing.
  expect(charged % made).toBe(0);
  expect(charged / made).toBeGreaterThan(2_000);
}

describe('calibration profiles on SQLite: two processes sharing the file (WORKERS=2)', () => {
  const target = sqliteTarget(dir, 'profiles', { HOLD_LEASE_MS: String(LEASE_MS) });
  let key = '';
  let server: ServerProcess;
  let pids: number[] = [];
  beforeAll(async () => {
    key = createKeyOn(target);
    ({ server, pids } = await startTwoOn(target, servers));
  }, 60_000);

  it('item 2: a process stopped past its lease while scoring a calibration stores no profile, and charges nothing', async () => {
    expect(pids).toHaveLength(2);
    await stalledCalibration(target, server, key, pids);
  });

  it('item 5: 40 calibrations at once leave the limit of profiles, the others refused and not charged', () =>
    concurrentCreates(target, [server]));

  it('item 8: reading, listing and deleting profiles spend the reads budget, never the detections’', async () => {
    const free = createKeyOn(target, 'free');
    const unknown = `cal_${'A'.repeat(22)}`;
    const statuses: number[] = [];
    const policies = new Set<string>();
    // A free key: 60 detections a minute, 600 reads.
    for (let i = 0; i < 70; i++) {
      const path = i % 3 === 0 ? '/v1/calibrations' : `/v1/calibrations/${unknown}`;
      const method = i % 3 === 2 ? 'DELETE' : 'GET';
      const response = await fetch(`${server.base}${path}`, { method, headers: { 'x-api-key': free } });
      statuses.push(response.status);
      policies.add(response.headers.get('ratelimit-policy') ?? '');
      await response.arrayBuffer();
    }
    const detection = await fetch(`${server.base}/v1/detect`, {
      method: 'POST',
      headers: { 'x-api-key': free, 'content-type': 'application/json' },
      body: JSON.stringify({ text: humanTexts(1, 31)[0] }),
    });
    const counts: Record<number, number> = {};
    for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
    console.log(
      `sqlite: 70 profile reads of a free key: ${JSON.stringify(counts)}, policies ${[...policies].join(' | ')}; its next detection ${detection.status}`,
    );
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    expect([...policies]).toEqual(['"reads";q=600;w=60']);
    expect(detection.status).toBe(200);
  });

  it('item 8: a batch whose `calibration` field is empty or a file is refused with 400, and charged nothing', async () => {
    const before = await usedOn(target);
    const cases: Array<[string, (form: FormData) => void, string]> = [
      ['empty', (form) => form.append('calibration', ''), 'invalid_calibration_id'],
      ['blank', (form) => form.append('calibration', '   '), 'invalid_calibration_id'],
      ['a file part', (form) => form.append('calibration', new File(['cal_x'], 'profile.json')), 'invalid_request'],
    ];
    for (const [name, add, code] of cases) {
      const form = new FormData();
      form.append('files[]', new File([humanTexts(1, 41)[0]], 'note.txt'));
      add(form);
      const response = await fetch(`${server.base}/v1/detect`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
      const text = await response.text();
      console.log(`sqlite: a batch whose calibration field is ${name}: ${response.status} ${text.slice(0, 120)}`);
      expect([name, response.status, JSON.parse(text.split('\n')[0]).error?.code]).toEqual([name, 400, code]);
    }
    expect(await settledUseOn(target)).toBe(before);
  });
});

describe.if(!POSTGRES_MISSING)('calibration profiles on two instances sharing PostgreSQL', () => {
  let target: Target;
  let key = '';
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    cluster ??= startPostgres();
    target = await postgresTarget(cluster, 'profiles', { HOLD_LEASE_MS: String(LEASE_MS) });
    key = createKeyOn(target);
    [a, b] = await Promise.all([startOn(target, servers), startOn(target, servers)]);
  }, 60_000);

  it('item 2: an instance stopped past its lease while scoring a calibration stores no profile, and charges nothing', () =>
    stalledCalibration(target, a, key, [a.pid]));

  it('item 5: 40 calibrations at once over two instances leave the limit of profiles', () => concurrentCreates(target, [a, b]));

  it('item 8: another key’s cached profile id costs what an unknown id costs', async () => {
    const owner = createKeyOn(target);
    const other = createKeyOn(target);
    const made = await calibrate(a, owner, humanTexts(60, 51));
    const { id } = (await made.json()) as { id: string };
    const text = humanTexts(1, 52)[0];
    const detect = async (key: string, calibration: string) => {
      const t0 = performance.now();
      const response = await fetch(`${a.base}/v1/detect`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ text, calibration }),
      });
      await response.arrayBuffer();
      return { status: response.status, ms: performance.now() - t0 };
    };
    expect((await detect(owner, id)).status).toBe(200); // cached on this instance now
    const foreign: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 40; i++) await detect(other, id); // warm-up
    for (let i = 0; i < PAIRS; i++) {
      // Interleaved, so a slow moment of the machine weighs on both alike; the cache entry stays fresh (its owner uses it).
      if (i % 50 === 0) await detect(owner, id);
      const a1 = await detect(other, id);
      const a2 = await detect(other, `cal_${crypto.randomUUID().replaceAll('-', '').slice(0, 22)}`);
      expect([a1.status, a2.status]).toEqual([404, 404]);
      foreign.push(a1.ms);
      unknown.push(a2.ms);
    }
    const z = mannWhitneyZ(foreign, unknown);
    console.log(
      `postgres: another key's cached id, median ${Math.round(median(foreign) * 1000)} µs; an unknown id, median ` +
        `${Math.round(median(unknown) * 1000)} µs (${PAIRS} each, interleaved); Mann-Whitney z = ${z.toFixed(1)}`,
    );
    // Before: the foreign id was answered without a query (z = -6.8 in the audit). A difference this
    // large by chance between two paths that cost the same happens about once in 16,000 runs.
    expect(Math.abs(z)).toBeLessThan(4);
  });
});

/** The median of `values`. */
function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The Mann-Whitney U test's z (normal approximation, ties averaged): negative when `xs` tends to be smaller than `ys`. */
function mannWhitneyZ(xs: number[], ys: number[]): number {
  const all = [...xs.map((v) => ({ v, x: true })), ...ys.map((v) => ({ v, x: false }))].sort((p, q) => p.v - q.v);
  let rankX = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j].v === all[i].v) j++;
    const rank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (all[k].x) rankX += rank;
    i = j;
  }
  const n1 = xs.length;
  const n2 = ys.length;
  const u = rankX - (n1 * (n1 + 1)) / 2;
  return (u - (n1 * n2) / 2) / Math.sqrt((n1 * n2 * (n1 + n2 + 1)) / 12);
}
