import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { runJsonl } from '../../src/cli/detect-jsonl';
import { createDetector } from '../../src/detector';
import { MODEL_FILES, modelVersion, modelVersionOf, readModelFiles, rememberModelVersion } from '../../src/model-version';
import { call, detector, makeApp, PROSE } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const VERSION_SHAPE = /^\d+\.\d+-[0-9a-f]{12}$/;
const dir = mkdtempSync(join(tmpdir(), 'detector-model-version-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('modelVersion', () => {
  it('is the model format and feature version plus a hash of the model files', () => {
    const version = modelVersion();
    expect(version).toMatch(VERSION_SHAPE);
    const meta = JSON.parse(readFileSync(join(import.meta.dir, '../../model/model.json'), 'utf8'));
    expect(version.startsWith(`${meta.format}.${meta.featureVersion}-`)).toBe(true);
    const hasher = new Bun.CryptoHasher('sha256');
    for (const path of MODEL_FILES) hasher.update(readFileSync(path));
    hasher.update(JSON.stringify(meta));
    expect(version.endsWith(hasher.digest('hex').slice(0, 12))).toBe(true);
  });

  it('changes by itself when a model file changes (a retrained model), and only then', () => {
    const meta = JSON.parse(readFileSync(join(import.meta.dir, '../../model/model.json'), 'utf8'));
    const copies = MODEL_FILES.map((path) => {
      const copy = join(dir, basename(path));
      copyFileSync(path, copy);
      return copy;
    });
    const read = (paths: readonly string[]) => paths.map((path) => readFileSync(path));
    expect(modelVersionOf(read(copies), meta)).toBe(modelVersion());
    const weights = readFileSync(copies[1]);
    weights[12345] ^= 1;
    writeFileSync(copies[1], weights);
    const retrained = modelVersionOf(read(copies), meta);
    expect(retrained).toMatch(VERSION_SHAPE);
    expect(retrained).not.toBe(modelVersion());
    // A recalibrated model.json (same weights) is another model too.
    const recalibrated = modelVersionOf(read(MODEL_FILES), { ...meta, weightScale: meta.weightScale + 1e-9 });
    expect(recalibrated).not.toBe(modelVersion());
  });

  it('is computed from the bytes the engine loader read, and equals the files read again', async () => {
    const files = await readModelFiles();
    expect(modelVersionOf(files)).toBe(modelVersionOf(MODEL_FILES.map((path) => readFileSync(path))));
    expect(rememberModelVersion(files)).toBe(modelVersion());
    await createDetector();
    expect(modelVersion()).toBe(modelVersionOf(files));
  });

  it('is in every single result, every batch result line and GET /health', async () => {
    const { app, newKey } = makeApp();
    const { key } = await newKey();
    const version = modelVersion();
    const single = await (await call(app, '/v1/detect', { key, json: { text: PROSE } })).json();
    expect(single.modelVersion).toBe(version);
    const form = new FormData();
    form.append('files[]', new File([PROSE], 'a.txt'));
    form.append('files[]', new File([`${PROSE} Again.`], 'b.md'));
    const lines = (await (await call(app, '/v1/detect', { key, body: form })).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const results = lines.filter((l) => l.type === 'result');
    expect(results).toHaveLength(2);
    for (const line of results) expect(line.modelVersion).toBe(version);
    // Only result lines carry it: progress, error and complete keep their shape.
    for (const line of lines.filter((l) => l.type !== 'result')) expect(line.modelVersion).toBeUndefined();
    const health = await (await call(app, '/health')).json();
    expect(health).toMatchObject({ status: 'ok', modelVersion: version });
  });

  it('is in every scored line of detect --jsonl, not in error lines', async () => {
    const out: string[] = [];
    async function* input() {
      yield new TextEncoder().encode(`${JSON.stringify({ text: PROSE })}\n{"text": "short"}\n`);
    }
    await runJsonl({
      detector: detector(),
      modelVersion: modelVersion(),
      sensitivity: 'conservative',
      lang: 'en',
      input: input(),
      write: (c) => void out.push(c),
    });
    const [scored, failed] = out
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(scored.modelVersion).toBe(modelVersion());
    expect(failed.error.code).toBe('text_too_short');
    expect(failed.modelVersion).toBeUndefined();
  });
});
