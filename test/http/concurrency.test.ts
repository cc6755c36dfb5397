import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chargeWords, getQuotaState } from '../../src/modules/quota';
import { call, freshStore, makeApp, words } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const dir = mkdtempSync(join(tmpdir(), 'detector-concurrency-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('atomic metering under concurrency', () => {
  it('charges exactly the words of the 200 responses, never above the plan', async () => {
    const store = freshStore(join(dir, 'parallel.sqlite'));
    // Metering under a burst of 120: the free plan's request rate (60 at once) would refuse half
    // before they reach the quota; the rate has its own tests (rate-limit.test.ts).
    const { app, newKey } = makeApp({ RATE_LIMITS: 'off' }, store);
    const created = await newKey('free');
    const row = created.row;
    await chargeWords(store.quota, row, 9_000); // 1,000 words left
    const sizes = Array.from({ length: 120 }, (_, i) => 20 + ((i * 37) % 61)); // 20..80 words, ~6,000 in total
    const responses = await Promise.all(sizes.map((n) => call(app, '/api/detect', { key: created.key, json: { text: words(n) } })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    const bodies = await Promise.all(responses.map((r) => r.json()));
    const served = bodies.filter((b) => b.success === true);
    const chargedBy200 = served.reduce((sum, b) => sum + b.words, 0);
    const state = await getQuotaState(store.quota, row);
    expect(served.length).toBeGreaterThan(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(50);
    expect(state.used - 9_000).toBe(chargedBy200);
    expect(state.used).toBeLessThanOrEqual(10_000);
    // Each success saw a distinct remaining count: no two charges observed the same counter.
    expect(new Set(served.map((b) => b.rate_remaining)).size).toBe(served.length);
    for (const b of bodies.filter((b) => b.success === false)) expect(b.error.code).toBe('quota_exceeded');
  });

  it('never overspends when two processes charge the same key at once', async () => {
    const path = join(dir, 'processes.sqlite');
    const store = freshStore(path);
    const { newKey } = makeApp({}, store);
    const created = await newKey('essential'); // 60,000 words
    const script = join(import.meta.dir, 'fixtures', 'charge-loop.ts');
    const procs = [0, 1].map(() => Bun.spawn(['bun', script, path, created.key, '7', '6000'], { stdout: 'pipe', stderr: 'inherit' }));
    const outputs = await Promise.all(procs.map(async (p) => Number((await new Response(p.stdout).text()).trim())));
    expect(await Promise.all(procs.map((p) => p.exited))).toEqual([0, 0]);
    const charged = outputs.reduce((a, b) => a + b, 0);
    const state = await getQuotaState(store.quota, created.row);
    expect(charged).toBe(state.used);
    expect(state.used).toBeLessThanOrEqual(60_000);
    expect(state.used).toBeGreaterThan(60_000 - 7);
  });
});
