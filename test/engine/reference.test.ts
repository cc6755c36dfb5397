/**
 * The reference human writers shipped with the model (model/reference.bin; issue 43 item 1): the
 * committed file is what `bun run reference` makes from ../shared/data and the committed model (rebuilt
 * here into a temp file, with the --commercial build beside it: ~25 s wall for both at a load average
 * of 20 on 2 cores, ~4 s of CPU each; skipped without the shared data), its format reads back
 * exactly and refuses anything else, and a detector of another model version gets no reference.
 */
import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataDir, hasData, NON_COMMERCIAL_SOURCES } from '../../scripts/lib/data';
import { POPULATION_LABELS } from '../../scripts/lib/populations';
import { buildReferenceSet, REFERENCE_CAP, REFERENCE_MIN_TEXTS, type ReferenceRecord } from '../../scripts/lib/reference-set';
import { detectorFor } from '../../src/detector';
import {
  decodeReference,
  encodeReference,
  REFERENCE_FORMAT,
  type ReferenceSet,
  type ReferenceText,
} from '../../src/detector/decide/reference';
import { ByteWriter } from '../../src/detector/decide/reference-bytes';
import { ADAPTATION_STYLE } from '../../src/detector/decide/adaptation';
import { MODEL } from '../../src/detector/score/load';
import { modelVersion } from '../../src/model-version';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { sharedEngine } from './fixture';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const DATA = hasData();
if (!DATA)
  console.warn(`test/engine/reference.test.ts: the rebuild check is skipped, the shared data is absent (${dataDir()}; set DATA_DIR)`);

const ROOT = join(import.meta.dir, '..', '..');
const COMMITTED = new Uint8Array(readFileSync(join(ROOT, 'model', 'reference.bin')));
const tmp = mkdtempSync(join(tmpdir(), 'reference-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A record as profileSample gives it, with `grams` in the core's (unsorted) order. */
function record(
  family: string,
  lang: 'en' | 'es',
  logit: number,
  grams: number[],
  style = ADAPTATION_STYLE.map((_, k) => k / 10),
): ReferenceRecord {
  return {
    lang,
    family,
    logit,
    probability: 1 / (1 + Math.exp(-logit)),
    words: 40 + grams.length,
    docType: 'essay',
    ...(logit > 2 ? { mixed: ['aggressive' as const] } : {}),
    evidence: { grams: Uint32Array.from(grams), style: Float64Array.from(style) },
  };
}

/** A small set: one population of each language (minTexts 1), one text with a NaN style measure. */
function smallSet(): ReferenceSet {
  const style = ADAPTATION_STYLE.map((_, k) => (k === 2 ? NaN : k));
  return buildReferenceSet(
    [
      record('wi_learner_essays', 'en', -1.25, [900, 3, 4_194_000, 77], style),
      record('wi_learner_essays', 'en', 2.5, [10, 20]),
      record('amazon_reviews_es', 'es', 0.5, [1, 2, 3]),
    ],
    { modelVersion: 'v-test', minTexts: 1 },
  );
}

/** The set with its typed arrays as plain arrays and NaN spelled out (toEqual holds a Float64Array's NaN unequal to itself). */
function plain(set: ReferenceSet): unknown {
  return JSON.parse(
    JSON.stringify(set, (_, v) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array, (x) => (Number.isNaN(x) ? 'NaN' : x)) : v)),
  );
}

/** Runs `bun run reference` into a temp file and answers its bytes. */
async function rebuild(args: string[]): Promise<Uint8Array> {
  const out = join(tmp, `${args.join('') || 'default'}.bin`);
  const proc = Bun.spawn(['nice', '-n', '5', process.execPath, 'run', 'scripts/reference.ts', '--out', out, ...args], {
    cwd: ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  return new Uint8Array(readFileSync(out));
}

describe.skipIf(!DATA)('bun run reference (needs ../shared/data)', () => {
  it('rebuilds model/reference.bin byte for byte, and --commercial leaves the non-commercial sources out', async () => {
    // Both builds at once, one a core.
    const [fresh, commercial] = await Promise.all([rebuild([]), rebuild(['--commercial'])]);
    expect(fresh.length).toBe(COMMITTED.length);
    expect(Buffer.from(fresh).equals(Buffer.from(COMMITTED))).toBe(true);
    const set = decodeReference(commercial);
    expect(set.commercialOnly).toBe(true);
    const ids = Object.values(set.languages).flatMap((l) => l!.populations.map((p) => p.id));
    expect(ids.length).toBeGreaterThan(10);
    // A population is named after its family; the families of non-commercial sources are gone.
    for (const source of NON_COMMERCIAL_SOURCES) expect(ids.filter((id) => id.endsWith(`:${source}`))).toEqual([]);
  });
});

describe('model/reference.bin', () => {
  const set = decodeReference(COMMITTED);

  it('is built for the committed model, the way it was trained (licences), and reads back to the same bytes', () => {
    expect(set.format).toBe(REFERENCE_FORMAT);
    expect(set.modelVersion).toBe(modelVersion());
    expect(set.commercialOnly ?? false).toBe(MODEL.trainedWith.commercialOnly ?? false);
    expect(Buffer.from(encodeReference(set)).equals(Buffer.from(COMMITTED))).toBe(true);
  });

  it('holds several labelled populations per language, learner essays and Spanish among them, 20 to 150 texts each', () => {
    const en = set.languages.en!;
    const es = set.languages.es!;
    expect(en.populations.length).toBeGreaterThanOrEqual(10);
    expect(es.populations.length).toBeGreaterThanOrEqual(5);
    const ids = [...en.populations, ...es.populations].map((p) => p.id);
    expect(ids).toContain('en:wi_learner_essays');
    expect(ids).toContain('en:outfox_essays');
    expect(ids).toContain('es:cowsl2h_spanish_learner_essays');
    expect(ids).toContain('es:codiesp_clinical_cases_es');
    for (const l of [en, es]) {
      for (const [i, p] of l.populations.entries()) {
        expect(p.label).toBe(POPULATION_LABELS[p.id]);
        const n = l.texts.filter((t) => t.population === i).length;
        expect(n).toBeGreaterThanOrEqual(REFERENCE_MIN_TEXTS);
        expect(n).toBeLessThanOrEqual(REFERENCE_CAP);
      }
      for (const t of l.texts) expect(t.evidence.style.length).toBe(ADAPTATION_STYLE.length);
    }
  });

  it('is decoded for a server in steps, once per process, and afresh after a caller gave up', () => {
    // In a process of its own: the decoded set is kept per process, and other test files may have decoded it.
    const script = `
      import { loadShippedReference, shippedReference } from './src/detector/shipped-reference';
      const gaveUp = await loadShippedReference(async () => { throw new Error('client closed'); }).catch((e) => e.message);
      let ticks = 0;
      const set = await loadShippedReference(async () => { ticks++; });
      const again = await loadShippedReference(async () => { ticks++; });
      console.log(JSON.stringify({ gaveUp, ticks, same: set === shippedReference() && again === set, texts: set.languages.en.texts.length }));
    `;
    const run = Bun.spawnSync([process.execPath, '-e', script], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
    expect(run.stderr.toString()).toBe('');
    const out = JSON.parse(run.stdout.toString());
    // One step every 32 texts of each language (DECODE_STEP_TEXTS).
    const steps = Object.values(set.languages).reduce((n, l) => n + Math.floor(l!.texts.length / 32), 0);
    expect(out).toEqual({ gaveUp: 'client closed', ticks: steps, same: true, texts: set.languages.en!.texts.length });
  });

  it('is carried by the detector of the committed model, and by no detector of another version', async () => {
    const engine = await sharedEngine();
    const current = detectorFor(engine);
    expect(current.facts.reference?.modelVersion).toBe(modelVersion());
    expect(current.reference).toBe(current.facts.reference!);
    // Spread into a profile's meta, as every caller does: the same decoded set, not a copy.
    expect({ ...current.facts }.reference).toBe(current.facts.reference!);
    expect(detectorFor(engine, { modelVersion: 'v-test' }).facts.reference).toBeNull();
    expect(detectorFor(engine, { modelVersion: 'v-test' }).reference).toBeNull();
    const own = smallSet();
    expect(detectorFor(engine, { modelVersion: 'v-test', reference: own }).facts.reference).toBe(own);
    expect(detectorFor(engine, { reference: own }).facts.reference).toBeNull();
  });
});

describe('encodeReference / decodeReference', () => {
  it('round-trips a set exactly, NaN style measures included, with the n-grams sorted', () => {
    const set = smallSet();
    expect(Array.from(set.languages.en!.texts[0].evidence.grams)).toEqual([3, 77, 900, 4_194_000]);
    const bytes = encodeReference(set);
    expect(plain(decodeReference(bytes))).toEqual(plain(set));
    expect(Buffer.from(encodeReference(decodeReference(bytes))).equals(Buffer.from(bytes))).toBe(true);
    expect(Number.isNaN(decodeReference(bytes).languages.en!.texts[0].evidence.style[2])).toBe(true);
  });

  it('refuses truncated bytes, other magic, another format, trailing bytes', () => {
    const bytes = encodeReference(smallSet());
    for (const cut of [0, 3, 7, 20, bytes.length - 40, bytes.length - 1]) {
      expect(() => decodeReference(bytes.slice(0, cut))).toThrow(/reference file/);
    }
    const magic = bytes.slice();
    magic[0] = 0x42;
    expect(() => decodeReference(magic)).toThrow('bad magic');
    expect(() => decodeReference(encodeReference({ ...smallSet(), format: REFERENCE_FORMAT + 1 }))).toThrow(/format 2/);
    expect(() => decodeReference(Uint8Array.from([...bytes, 0]))).toThrow('bytes after the last text');
  });

  it('refuses non-finite numbers, population indexes out of range and n-grams that do not ascend', () => {
    const one = buildReferenceSet([record('wi_learner_essays', 'en', 0.5, [10, 20])], { modelVersion: 'v', minTexts: 1 });
    const bytes = encodeReference(one);
    const body = 8 + new DataView(bytes.buffer).getUint32(4, true);
    // population (1 byte), docType (1), words (1: 42), mixed (1), then the logit.
    const infinite = bytes.slice();
    new DataView(infinite.buffer).setFloat64(body + 4, Number.POSITIVE_INFINITY, true);
    expect(() => decodeReference(infinite)).toThrow('not finite');
    const nan = bytes.slice();
    new DataView(nan.buffer).setFloat64(body + 12, Number.NaN, true);
    expect(() => decodeReference(nan)).toThrow('not finite');
    const population = bytes.slice();
    population[body] = 1;
    expect(() => decodeReference(population)).toThrow('population 1 out of range');
    // The same text with its second n-gram equal to the first (a gap of 0).
    const good = new ByteWriter();
    good.ascending([10, 20]);
    const bad = new ByteWriter();
    bad.varint(2);
    bad.rice([10, 0]);
    const tail = good.done().length;
    const unsorted = Uint8Array.from([...bytes.subarray(0, bytes.length - tail), ...bad.done()]);
    expect(() => decodeReference(unsorted)).toThrow('not ascending');
    // The encoder never writes them either.
    const withText = (patch: Partial<ReferenceText>) => ({
      ...one,
      languages: { en: { ...one.languages.en!, texts: [{ ...one.languages.en!.texts[0], ...patch }] } },
    });
    const style = one.languages.en!.texts[0].evidence.style;
    expect(() => encodeReference(withText({ evidence: { grams: Uint32Array.from([20, 10]), style } }))).toThrow('strictly ascending');
    expect(() => encodeReference(withText({ logit: Number.NaN }))).toThrow('not a finite number');
    expect(() => encodeReference(withText({ population: 1 }))).toThrow('cannot write');
  });
});
