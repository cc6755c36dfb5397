/**
 * Issue 40 item 1: one calibration text must not break scoring for every key on the process.
 * Before: a text of 16,777,217 characters in POST /v1/calibrations answered 500, and then every
 * detection of every key on that process answered 500 until a restart, with /health saying `ok`;
 * the offline `calibrate` crashed on the same line (exit 1, uncaught RangeError) and lost the others.
 * The cause, confirmed: the core's text capacity doubled to 2^25, its regions grew past 2 GiB, the
 * u32 addresses came back from wasm as negative numbers, a view could not be made, and refresh() had
 * already stored the new buffer, so the stale views were never rebuilt.
 *
 * A real server process (SQLite) for the API and the CLI; then an app in this process around its own
 * detector, where the engine is made to fail the two ways no input can any more (a call that traps
 * after writing into the core's memory, and a rebuild that cannot instantiate), to show that another
 * key's next detection answers 200 with the score it had, and that /health says `degraded` exactly
 * while detections cannot be scored.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { humanTexts } from '../../scripts/lib/human-texts';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { DEFAULT_MAX_TEXT_CHARS } from '../../src/contract';
import { createDetector, type DetectorPipeline } from '../../src/detector';
import { SCORING_PROBE_TTL_MS } from '../../src/modules/health';
import { call, freshStore, keyOn, PROSE } from '../http/helpers';
import { detectOn, runCommand } from '../fixtures/server-process';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { startFaultServer, type FaultServer } from './fault-server';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '../..');
/** A sentence of 100+ characters: a text of them stays under the sentence limit (src/extract/sentences.ts). */
const SENTENCE = 'The committee met again today and talked for hours about the budget, the library roof and the new computers. ';
/** The audit's text: one character past the 2^24 the old core still took. */
const HUGE = SENTENCE.repeat(Math.ceil((2 ** 24 + 1) / SENTENCE.length)).slice(0, 2 ** 24 + 1);
/** Known-human notes: 60 make a profile (50 a language). */
const NOTES = humanTexts(60);

let fault: FaultServer;
beforeAll(async () => {
  fault = await startFaultServer('engine-one-text', {}, 1);
}, 60_000);
afterAll(async () => {
  await fault?.stop();
});

async function health(base: string) {
  const response = await fetch(`${base}/health`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('one text breaks scoring for every key (issue 40 item 1), real server', () => {
  it('skips a calibration text of 16,777,217 characters, and every key still gets 200', async () => {
    const [attacker, other] = fault.keys;
    const response = await fetch(`${fault.server.base}/v1/calibrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': attacker },
      body: JSON.stringify({ name: 'Notes', texts: [HUGE, ...NOTES] }),
    });
    const body = (await response.json()) as Record<string, unknown>;
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await detectOn(fault.server, i % 2 ? attacker : other, PROSE)).status);
    const after = await health(fault.server.base);
    console.log(`calibration with a ${HUGE.length}-character text: ${response.status} ${JSON.stringify(body).slice(0, 120)}`);
    console.log(`detections after it (both keys): ${statuses.join(' ')}; /health ${after.status} ${JSON.stringify(after.body)}`);
    expect(response.status).toBe(201);
    expect(body.skipped).toBe(1);
    expect((body.languages as { en: { texts: number } }).en.texts).toBe(NOTES.length);
    expect(statuses).toEqual(Array(10).fill(200));
    expect(after).toMatchObject({ status: 200, body: { status: 'ok', scoring: 'up' } });
  });

  it('refuses a single text past the limit with 413 text_too_long, as sent and once normalised, charging nothing', async () => {
    const key = fault.keys[1];
    const usage = async () =>
      ((await (await fetch(`${fault.server.base}/v1/usage`, { headers: { 'x-api-key': key } })).json()) as { words: { used: number } })
        .words.used;
    const before = await usage();
    const long = 'word '.repeat(DEFAULT_MAX_TEXT_CHARS / 5 + 1);
    const sent = await detectOn(fault.server, key, long);
    expect(sent.status).toBe(413);
    expect(((await sent.json()) as { error: { code: string } }).error.code).toBe('text_too_long');
    // The ligature U+FB03 is three letters once normalised (NFKC): within the limit as sent, past it for the engine.
    const ligatures = 'o\ufb03ce '.repeat(Math.floor(DEFAULT_MAX_TEXT_CHARS / 5));
    expect(ligatures.length).toBeLessThanOrEqual(DEFAULT_MAX_TEXT_CHARS);
    const normalised = await detectOn(fault.server, key, ligatures);
    expect(normalised.status).toBe(413);
    expect(((await normalised.json()) as { error: { code: string } }).error.code).toBe('text_too_long');
    expect(await usage()).toBe(before);
    expect((await detectOn(fault.server, key, PROSE)).status).toBe(200);
  });

  it('states the per-text limit in GET /v1/limits', async () => {
    const limits = (await (await fetch(`${fault.server.base}/v1/limits`, { headers: { 'x-api-key': fault.key } })).json()) as Record<
      string,
      Record<string, number>
    >;
    expect(limits.single.maxTextChars).toBe(DEFAULT_MAX_TEXT_CHARS);
    expect(limits.batch.maxTextChars).toBe(DEFAULT_MAX_TEXT_CHARS);
    expect(limits.calibrations.maxTextChars).toBe(DEFAULT_MAX_TEXT_CHARS);
  });
});

describe('the offline calibrate and an over-long line (issue 40 item 1)', () => {
  it('names the line on stderr, skips it and makes the profile from the other texts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'calibrate-long-'));
    try {
      const out = join(dir, 'profile.json');
      const stdin = [
        JSON.stringify({ text: NOTES[0] }),
        JSON.stringify({ text: HUGE }),
        ...NOTES.slice(1).map((text) => JSON.stringify({ text })),
      ].join('\n');
      const result = runCommand(['bun', 'src/main.ts', 'calibrate', '--out', out], ROOT, { DATABASE_PATH: join(dir, 'db.sqlite') }, stdin);
      console.log(`calibrate: exit ${result.code}; stderr: ${result.err.trim().slice(0, 200)}`);
      expect(result.code).toBe(0);
      expect(result.err).toContain('stdin:2\terror\ttext_too_long\t');
      const summary = JSON.parse(result.out) as { inputs: Record<string, number> };
      expect(summary.inputs).toEqual({ read: NOTES.length + 1, usable: NOTES.length, tooShort: 0, duplicates: 0, failed: 1 });
      expect((JSON.parse(readFileSync(out, 'utf8')) as { languages: { en?: unknown } }).languages.en).toBeDefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The live wasm instance of a detector's core (private fields: the faults below are injected there). */
type CoreExports = { analyze: (...args: number[]) => number; memory: WebAssembly.Memory; weightsPtr(): number };
type CoreInsides = { ex: CoreExports; module: WebAssembly.Module; weightBits: number; rebuilds: number };
const insides = (detector: DetectorPipeline) => detector.engine.core as unknown as CoreInsides;

/**
 * The next call into the core writes zeros over its weight table, then traps (as a trap half-way
 * through a write would leave it). The instance's exports are frozen: the core is handed a copy.
 */
function trapOnce(detector: DetectorPipeline): void {
  const core = insides(detector);
  const real = core.ex;
  core.ex = {
    ...real,
    analyze: () => {
      core.ex = real;
      new Uint8Array(real.memory.buffer, real.weightsPtr() >>> 0, 1 << core.weightBits).fill(0);
      throw new WebAssembly.RuntimeError('unreachable');
    },
  };
}

/** A module that cannot be instantiated: it imports a function nobody provides (WebAssembly.LinkError). */
const UNLINKABLE = new WebAssembly.Module(
  new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x02, 0x0f, 0x01, 0x03, 0x65, 0x6e, 0x76, 0x07,
    0x6d, 0x69, 0x73, 0x73, 0x69, 0x6e, 0x67, 0x00, 0x00,
  ]),
);

describe('an engine error on the process (issue 40 item 1), in process', () => {
  let detector: DetectorPipeline;
  let app: ReturnType<typeof createApp>;
  let keys: string[];
  beforeAll(async () => {
    detector = await createDetector();
    const store = freshStore();
    app = createApp({ config: loadConfig({ DATABASE_PATH: ':memory:', BOOTSTRAP_KEY: '0' }), store, detector });
    keys = [(await keyOn(store, 'enterprise')).key, (await keyOn(store, 'enterprise')).key];
  });
  const detect = async (key: string) => {
    const response = await call(app, '/v1/detect', { key, json: { text: PROSE } });
    return { status: response.status, body: (await response.json()) as { score?: number; error?: { code: string } } };
  };

  it("answers another key's next detection with 200 and the same score after the core traps mid-call", async () => {
    const before = await detect(keys[1]);
    expect(before.status).toBe(200);
    trapOnce(detector);
    const failed = await detect(keys[0]);
    expect(failed).toMatchObject({ status: 500, body: { error: { code: 'internal_error' } } });
    const next = await detect(keys[1]);
    console.log(`after a trap: ${failed.status}, then ${next.status} score ${next.body.score} (before ${before.body.score})`);
    expect(next.status).toBe(200);
    expect(next.body.score).toBe(before.body.score as number);
    expect(insides(detector).rebuilds).toBe(1);
  });

  it('says degraded on /health while detections cannot be scored, and ok again once they can', async () => {
    const before = await detect(keys[1]);
    const core = insides(detector);
    const module = core.module;
    core.module = UNLINKABLE;
    trapOnce(detector);
    expect((await detect(keys[0])).status).toBe(500);
    // The rebuild failed: every detection fails, and /health says so (its probe is kept at most SCORING_PROBE_TTL_MS).
    await Bun.sleep(SCORING_PROBE_TTL_MS + 50);
    expect((await detect(keys[1])).status).toBe(500);
    const down = await call(app, '/health');
    const downBody = await down.json();
    console.log(`while broken: /health ${down.status} ${JSON.stringify(downBody)}`);
    expect(down.status).toBe(503);
    expect(downBody).toMatchObject({
      status: 'degraded',
      store: 'up',
      scoring: 'down',
      reason: 'scoring_failing',
      code: 'CoreUnavailableError',
    });
    core.module = module;
    await Bun.sleep(SCORING_PROBE_TTL_MS + 50);
    const up = await call(app, '/health');
    expect(up.status).toBe(200);
    expect(await up.json()).toMatchObject({ status: 'ok', store: 'up', scoring: 'up' });
    const next = await detect(keys[1]);
    expect(next.status).toBe(200);
    expect(next.body.score).toBe(before.body.score as number);
  });
});
