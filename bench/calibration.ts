/**
 * Calibration section (issue 34: a detection with a profile costs no more than one without; the
 * lookup is cached; issue 38: one with a profile adapted to AI examples at most 1.5x one with a
 * calibration-only profile). POST /v1/detect through the app (app.handle: the route, the key check,
 * the charge on a SQLite file, the analysis; no socket) without `calibration`, with a calibration-only
 * profile and with an adapted one, interleaved in rounds so all see the same machine; plus the profile
 * lookup alone, cached, and what it would cost to read and parse the stored profile on every request
 * instead. Both profiles are made from texts of the detected texts' own kind, so that they apply
 * (`calibration.applied`, and `adapted` for the adapted one: checked, or the section fails).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createDetector } from '../src/detector';
import { createKey, findActiveKey } from '../src/modules/keys';
import { openSqliteStore } from '../src/store/sqlite';
import { corpusText } from './corpus';
import { percentile } from './stats';

/** Texts the benchmark's profile is made from (enough for every mode's threshold). */
export const PROFILE_TEXTS = 150;
/** AI examples of the adapted profile. */
export const AI_EXAMPLES = 60;
const OPENERS = ['Moreover,', 'Furthermore,', 'Additionally,', 'In conclusion,', 'Notably,', 'Overall,'];

/** An "AI example" of the corpus's kind: a corpus text whose sentences open with the transitions a chat model overuses. */
function aiExample(variant: number): string {
  return corpusText(CALIBRATION_WORDS, 10_000 + variant).replace(
    /(^|[.?] )([A-Z])/g,
    (_, before: string, first: string, at: number) => `${before}${OPENERS[(variant + at) % OPENERS.length]} ${first.toLowerCase()}`,
  );
}
/** Words of each detected text: the HTTP section's size. */
export const CALIBRATION_WORDS = 500;
const VARIANTS = 8;
const ROUNDS = 5;
const CALLS_PER_ROUND = 150;
const LOOKUPS = 20_000;

/** One variant of the detect request (through the app), or of detector.analyze alone. */
export interface CalibrationRow {
  what: 'POST /v1/detect' | 'detector.analyze';
  variant: 'without a profile' | 'with a profile' | 'with an adapted profile';
  calls: number;
  p50: number;
  p99: number;
}

/** What the calibration section measured. */
export interface CalibrationResult {
  profileTexts: number;
  words: number;
  rows: CalibrationRow[];
  /** Microseconds of one cached lookup (store.calibrations.lookup). */
  lookupCachedUs: number;
  /** Microseconds to read and parse the stored profile (what every request would pay without the cache). */
  lookupUncachedUs: number;
  /** Bytes of the stored profile JSON. */
  profileBytes: number;
  /** Bytes of the stored adapted profile JSON, and the n-grams it weighs. */
  adaptedBytes: number;
  adaptedFeatures: number;
  /** Another key's detections (ms) while a large adapted profile is made through the same process, and idle. */
  build: { humanTexts: number; aiTexts: number; buildMs: number; during: LatencyStats; idle: LatencyStats };
}

/** Latencies of a series of calls (ms). */
export interface LatencyStats {
  calls: number;
  p50: number;
  p99: number;
  max: number;
}

/** Texts of the large profile made while another key detects (issue 38: the API scores and fits in slices). */
export const BUILD_HUMAN_TEXTS = 2_000;
export const BUILD_AI_TEXTS = 500;
const BUILD_WORDS = 300;

/** Runs the calibration section. */
export async function benchCalibration(): Promise<CalibrationResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-calibration-'));
  const detector = await createDetector();
  const store = openSqliteStore(join(dir, 'bench.sqlite'), { timeoutMs: 3000 });
  try {
    const config = loadConfig({ DATABASE_PATH: join(dir, 'bench.sqlite'), BOOTSTRAP_KEY: '0', RATE_LIMITS: '0' });
    const app = createApp({ config, store, detector });
    const { key } = await createKey(store.keys, { plan: 'enterprise' });
    const keyRow = (await findActiveKey(store.keys, key))!;
    const post = (path: string, body: unknown) =>
      app.handle(
        new Request(`http://bench${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          body: JSON.stringify(body),
        }),
      );
    // English texts only (a corpus text now and then reads as Spanish): a profile of one language, which covers every text measured.
    const english = (count: number, text: (v: number) => string) => {
      const out: string[] = [];
      for (let v = 0; out.length < count; v++) if (detector.analyze(text(v)).language === 'en') out.push(text(v));
      return out;
    };
    const human = english(PROFILE_TEXTS, (v) => corpusText(CALIBRATION_WORDS, 1_000 + v));
    const make = async (body: object) => {
      const made = await post('/v1/calibrations', body);
      if (made.status !== 201) throw new Error(`bench: POST /v1/calibrations answered ${made.status}: ${await made.text()}`);
      return (await made.json()) as { id: string; languages: { en: { adaptation: { features: number } | null } } };
    };
    const { id } = await make({ name: 'bench', texts: human });
    const adaptedProfile = await make({ name: 'bench adapted', texts: human, aiTexts: english(AI_EXAMPLES, aiExample) });
    if (!adaptedProfile.languages.en.adaptation) throw new Error('bench: the adapted profile was not adapted');
    const texts = english(VARIANTS, (v) => corpusText(CALIBRATION_WORDS, v));
    const variants: Array<[CalibrationRow['variant'], (text: string) => object]> = [
      ['without a profile', (text) => ({ text })],
      ['with a profile', (text) => ({ text, calibration: id })],
      ['with an adapted profile', (text) => ({ text, calibration: adaptedProfile.id })],
    ];
    // Both profiles must apply to the texts measured (else the adaptation is never run).
    for (const [variant, body] of variants.slice(1)) {
      for (const text of texts) {
        const answer = (await (await post('/v1/detect', body(text))).json()) as { calibration: { applied: boolean; adapted: boolean } };
        if (!answer.calibration.applied || answer.calibration.adapted !== (variant === 'with an adapted profile')) {
          throw new Error(`bench: ${variant} answered ${JSON.stringify(answer.calibration)}`);
        }
      }
    }
    const best = new Map<string, CalibrationRow>();
    const keep = (row: CalibrationRow) => {
      const kept = best.get(`${row.what} ${row.variant}`);
      if (!kept || row.p50 < kept.p50) best.set(`${row.what} ${row.variant}`, row);
    };
    const profile = await store.calibrations.lookup(keyRow.id, id);
    const adapted = await store.calibrations.lookup(keyRow.id, adaptedProfile.id);
    const analyses: Array<[CalibrationRow['variant'], (text: string) => unknown]> = [
      ['without a profile', (text) => detector.analyze(text)],
      ['with a profile', (text) => detector.analyze(text, { profile: profile as never })],
      ['with an adapted profile', (text) => detector.analyze(text, { profile: adapted as never })],
    ];
    for (let i = 0; i < 40; i++) for (const [, body] of variants) await (await post('/v1/detect', body(texts[i % VARIANTS]))).text();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [variant, body] of round % 2 === 0 ? variants : [...variants].reverse()) {
        const times: number[] = [];
        for (let i = 0; i < CALLS_PER_ROUND; i++) {
          const t0 = performance.now();
          const response = await post('/v1/detect', body(texts[i % VARIANTS]));
          await response.text();
          times.push(performance.now() - t0);
          if (response.status !== 200) throw new Error(`bench: detect answered ${response.status}`);
        }
        keep({ what: 'POST /v1/detect', variant, calls: times.length, p50: percentile(times, 50), p99: percentile(times, 99) });
      }
      for (const [variant, analyze] of round % 2 === 0 ? analyses : [...analyses].reverse()) {
        const times: number[] = [];
        for (let i = 0; i < CALLS_PER_ROUND * 2; i++) {
          const t0 = performance.now();
          analyze(texts[i % VARIANTS]);
          times.push(performance.now() - t0);
        }
        keep({ what: 'detector.analyze', variant, calls: times.length, p50: percentile(times, 50), p99: percentile(times, 99) });
      }
    }
    // Another key's detections while a large adapted profile is scored and fitted in the same process.
    const { key: otherKey } = await createKey(store.keys, { plan: 'enterprise' });
    const detectAs = (text: string) =>
      app.handle(
        new Request('http://bench/v1/detect', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': otherKey },
          body: JSON.stringify({ text }),
        }),
      );
    const probe = async (until: () => boolean, most: number) => {
      const times: number[] = [];
      while (!until() && times.length < most) {
        const t0 = performance.now();
        await (await detectAs(texts[times.length % texts.length])).text();
        times.push(performance.now() - t0);
        await Bun.sleep(5);
      }
      return { calls: times.length, p50: percentile(times, 50), p99: percentile(times, 99), max: Math.max(...times) };
    };
    const idle = await probe(() => false, 200);
    const buildHuman = english(BUILD_HUMAN_TEXTS, (v) => corpusText(BUILD_WORDS, 20_000 + v));
    const buildAi = english(BUILD_AI_TEXTS, (v) => aiExample(5_000 + v));
    let built = false;
    const buildStart = performance.now();
    const building = make({ name: 'bench build', texts: buildHuman, aiTexts: buildAi }).finally(() => {
      built = true;
    });
    const during = await probe(() => built, Number.POSITIVE_INFINITY);
    await building;
    const buildMs = performance.now() - buildStart;
    // The lookup alone: through the cache (what a detection pays), and the raw read and parse it saves.
    let t0 = performance.now();
    for (let i = 0; i < LOOKUPS; i++) await store.calibrations.lookup(keyRow.id, id);
    const lookupCachedUs = ((performance.now() - t0) / LOOKUPS) * 1000;
    const raw = store.db.$client.query<{ profile: string }, [string]>('SELECT profile FROM calibrations WHERE id = ?');
    const reads = 500;
    t0 = performance.now();
    for (let i = 0; i < reads; i++) JSON.parse(raw.get(id)!.profile);
    const lookupUncachedUs = ((performance.now() - t0) / reads) * 1000;
    return {
      profileTexts: PROFILE_TEXTS,
      words: CALIBRATION_WORDS,
      rows: [...best.values()],
      lookupCachedUs,
      lookupUncachedUs,
      profileBytes: raw.get(id)!.profile.length,
      adaptedBytes: raw.get(adaptedProfile.id)!.profile.length,
      adaptedFeatures: adaptedProfile.languages.en.adaptation.features,
      build: { humanTexts: BUILD_HUMAN_TEXTS, aiTexts: BUILD_AI_TEXTS, buildMs, during, idle },
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log(JSON.stringify(await benchCalibration(), null, 2));
