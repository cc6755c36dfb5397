/**
 * The committed model files are what `bun run train` makes from ../shared/data: training is
 * deterministic, so a fresh run into a temp dir must give the same bytes. Takes about 2.5 min;
 * skips without the shared data.
 */
import { describe, expect, it } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataDir, hasData } from '../../scripts/lib/data';

const DATA = hasData();
if (!DATA) console.warn(`model-reproducible: no shared data at ${dataDir()}; the retraining check is skipped (set DATA_DIR).`);

const ROOT = join(import.meta.dir, '..', '..');
const FILES = ['model.json', 'weights.bin', 'doctype.bin'];

describe('committed model', () => {
  it.skipIf(!DATA)(
    'is byte-identical to a fresh `bun run train`',
    async () => {
      const out = mkdtempSync(join(tmpdir(), 'model-check-'));
      try {
        const proc = Bun.spawn([process.execPath, join(ROOT, 'scripts', 'train.ts'), '--out', out], {
          cwd: ROOT,
          stdout: 'ignore',
          stderr: 'pipe',
        });
        const stderr = await new Response(proc.stderr).text();
        expect({ exit: await proc.exited, stderr: stderr.slice(-2000) }).toEqual({ exit: 0, stderr: expect.any(String) });
        for (const file of FILES) {
          const fresh = readFileSync(join(out, file));
          const committed = readFileSync(join(ROOT, 'model', file));
          expect({ file, same: Buffer.compare(fresh, committed) === 0 }).toEqual({ file, same: true });
        }
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    },
    600_000,
  );
});
