/**
 * The committed model and wasm core: they load, agree on the feature version, the weights are the
 * ones model.json describes, and model/detector.wasm is exactly what `bun run build:wasm` makes
 * from assembly/ today (so a fresh clone never runs a stale core).
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/detector/score/engine';
import { MODEL } from '../../src/detector/score/load';
import { LENGTH_BUCKETS } from '../../src/detector/score/calibration';
import { SENSITIVITIES } from '../../src/contract';
import { DIMENSIONS } from '../../src/detector/explain/dimensions';
import { sharedEngine } from './fixture';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ROOT = join(import.meta.dir, '..', '..');
const MODEL_DIR = join(ROOT, 'model');
/** Issue #2: the committed model is at most 16 MB. */
const MAX_MODEL_BYTES = 16 * 1024 * 1024;

describe('committed model', () => {
  it('loads, and its feature version matches the wasm core', async () => {
    const engine = await sharedEngine();
    expect(engine.core.featureVersion()).toBe(MODEL.featureVersion);
    expect(engine.model.featureVersion).toBe(MODEL.featureVersion);
    const r = engine.analyze('The committee reviewed the proposal in detail. It approved the plan without amendment.');
    expect(r.sentences.length).toBe(2);
    expect(r.score).toBeGreaterThanOrEqual(0);
    expect(r.score).toBeLessThanOrEqual(100);
  });

  it('has the weights that model.json describes (size and sha256), not all zero', () => {
    const bytes = readFileSync(join(MODEL_DIR, 'weights.bin'));
    expect(bytes.byteLength).toBe(1 << MODEL.weightBits); // one companded int8 per bucket
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(MODEL.weightsSha256);
    const q = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let nonZero = 0;
    for (let i = 0; i < q.length; i++) if (q[i] !== 0) nonZero++;
    expect(nonZero).toBeGreaterThan(1000);
    expect(MODEL.weightScale).toBeGreaterThan(0);
  });

  it('fits in 16 MB', () => {
    let total = 0;
    for (const f of ['model.json', 'weights.bin', 'detector.wasm']) total += statSync(join(MODEL_DIR, f)).size;
    expect(total).toBeLessThanOrEqual(MAX_MODEL_BYTES);
  });

  it('is refused by a core with another feature version', async () => {
    const wasm = readFileSync(join(MODEL_DIR, 'detector.wasm'));
    const stale = { ...MODEL, featureVersion: MODEL.featureVersion + 1000 };
    await expect(Engine.create(wasm, stale, null)).rejects.toThrow(/feature version/);
  });

  it('has per-language parameters for English and Spanish', () => {
    for (const lang of ['en', 'es'] as const) {
      expect(Number.isFinite(MODEL.lexicalBias[lang])).toBe(true);
      expect(MODEL.sentenceCalibration[lang].a).toBeGreaterThan(0);
      expect(MODEL.cells[lang]).toHaveLength(LENGTH_BUCKETS.length);
      for (const cell of MODEL.cells[lang]) {
        expect(cell.platt.a).toBeGreaterThan(0);
        for (const mode of SENSITIVITIES) {
          expect(cell.thresholds[mode]).toBeGreaterThan(0);
          expect(cell.thresholds[mode]).toBeLessThan(1);
          expect(typeof cell.conclusive[mode]).toBe('boolean');
        }
      }
      for (const mode of SENSITIVITIES) {
        expect(MODEL.sentenceThresholds[lang][mode]).toBeGreaterThan(0);
        expect(MODEL.sentenceThresholds[lang][mode]).toBeLessThan(1);
      }
      const decoder = MODEL.segments[lang];
      expect(decoder).not.toBeNull();
      expect(decoder!.scale).toBeGreaterThan(0);
      expect(decoder!.switchCost).toBeGreaterThan(0);
      expect(MODEL.vocab[lang].length).toBeGreaterThan(100);
    }
    expect(MODEL.format).toBe(2);
  });

  it('has a threshold for every thresholded dimension in both languages: a finite number, or null when switched off', () => {
    for (const lang of ['en', 'es'] as const) {
      for (const d of DIMENSIONS) {
        if (d.detect) continue; // lexical_fingerprint and obfuscation decide without a trained threshold
        const threshold = MODEL.dimensionThresholds[lang][d.id];
        expect({ lang, id: d.id, ok: threshold === null || Number.isFinite(threshold) }).toEqual({ lang, id: d.id, ok: true });
      }
    }
  });
});

describe('committed wasm core', () => {
  it('is byte-identical to a fresh asc build of assembly/', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const build = pkg.scripts['build:wasm'].split(' && ')[0]; // then gen:layout writes the host's view of the records
    expect(build).toStartWith('asc ');
    const dir = mkdtempSync(join(tmpdir(), 'wasm-build-'));
    try {
      const outFile = join(dir, 'detector.wasm');
      // The same command as `bun run build:wasm`; --outFile on the command line overrides asconfig's.
      const args = [...build.slice('asc '.length).split(/\s+/), '--outFile', outFile];
      const proc = Bun.spawn([join(ROOT, 'node_modules', '.bin', 'asc'), ...args], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
      const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
      expect({ code, stderr }).toEqual({ code: 0, stderr: expect.any(String) });
      const fresh = readFileSync(outFile);
      const committed = readFileSync(join(MODEL_DIR, 'detector.wasm'));
      // On failure: run `bun run build:wasm` and commit model/detector.wasm.
      expect(fresh.byteLength).toBe(committed.byteLength);
      expect(Buffer.compare(fresh, committed)).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
