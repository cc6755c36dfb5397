/**
 * The committed model files are what `bun run train` makes from ../shared/data. Training is
 * deterministic and, on the machine that trained it, gives the same bytes (the test reports
 * whether it did). Another CPU may round a libm function differently in the last bit, so what must
 * hold is: every number of model.json and of the document-type header within 1e-6 (relative), and
 * at most 0.1% of the int8 weight codes one step apart. A stale or hand-edited model differs in far
 * more. The run takes about 4 min on 2 cores; the whole suite starts it in the background at idle
 * priority when it begins (fixtures/retrain.ts), so it mostly costs no wall time. Skips without the shared data.
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocTypeModel } from '../../src/detector/score/doctype';
import { dataDir, hasData } from '../../scripts/lib/data';
import { retrainRun } from '../fixtures/retrain';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const DATA = hasData();
if (!DATA) console.warn(`model-reproducible: no shared data at ${dataDir()}; the retraining check is skipped (set DATA_DIR).`);

const ROOT = join(import.meta.dir, '..', '..');
const RELATIVE = 1e-6;
const MAX_CHANGED_CODES = 0.001;

/** Paths (a.b[3].c) where two JSON values differ beyond RELATIVE; [] when they agree. */
function numericDiff(a: unknown, b: unknown, path = ''): string[] {
  if (typeof a === 'number' && typeof b === 'number') {
    const close = a === b || Math.abs(a - b) <= RELATIVE * Math.max(Math.abs(a), Math.abs(b), 1e-3);
    return close ? [] : [`${path}: ${a} vs ${b}`];
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => numericDiff((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`));
  }
  return a === b ? [] : [`${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`];
}

/** Share of codes that differ, and whether any differs by more than one step. */
function codeDiff(a: Int8Array | Uint8Array, b: Int8Array | Uint8Array) {
  if (a.length !== b.length) return { changed: 1, farApart: true };
  let changed = 0;
  let farApart = false;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    changed++;
    if (Math.abs(a[i] - b[i]) > 1) farApart = true;
  }
  return { changed: changed / a.length, farApart };
}

describe('committed model', () => {
  it.skipIf(!DATA)(
    'is what a fresh `bun run train` makes',
    async () => {
      // The whole suite started it in the background at its first moment (test/preload.ts).
      const run = retrainRun();
      const out = run.out;
      try {
        const t0 = performance.now();
        const exit = await run.exited;
        console.log(
          `model-reproducible: ${run.background ? 'started with the suite; waited' : 'ran'} ${((performance.now() - t0) / 1000).toFixed(0)} s here`,
        );
        expect({ exit, stderr: (await run.stderr).slice(-2000) }).toEqual({ exit: 0, stderr: expect.any(String) });
        const read = (dir: string, file: string) => readFileSync(join(dir, file));
        const committedDir = join(ROOT, 'model');
        const identical = ['model.json', 'weights.bin', 'doctype.bin'].filter(
          (f) => Buffer.compare(read(out, f), read(committedDir, f)) === 0,
        );
        console.log(`model-reproducible: byte-identical: ${identical.join(', ') || 'none'}`);

        const json = (dir: string) => JSON.parse(read(dir, 'model.json').toString('utf8'));
        expect(numericDiff(json(out), json(committedDir)).slice(0, 10)).toEqual([]);

        const weights = codeDiff(new Int8Array(read(out, 'weights.bin')), new Int8Array(read(committedDir, 'weights.bin')));
        expect(weights.farApart).toBe(false);
        expect(weights.changed).toBeLessThanOrEqual(MAX_CHANGED_CODES);

        const fresh = parseDocTypeModel(new Uint8Array(read(out, 'doctype.bin')));
        const committed = parseDocTypeModel(new Uint8Array(read(committedDir, 'doctype.bin')));
        const { table: freshTable, ...freshHead } = fresh;
        const { table: committedTable, ...committedHead } = committed;
        expect(numericDiff(freshHead, committedHead)).toEqual([]);
        const table = codeDiff(freshTable, committedTable);
        expect(table.farApart).toBe(false);
        expect(table.changed).toBeLessThanOrEqual(MAX_CHANGED_CODES);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    },
    600_000,
  );
});
