/**
 * The host's view of the wasm records (src/detector/score/layout.ts) is generated from the one spec,
 * assembly/token.ts and assembly/layout.ts, by scripts/gen-layout.ts (issue 20). Checked two ways:
 * the committed file is what the generator writes now, and its values agree slot by slot with the
 * AssemblyScript source (also run on a tampered source, to show the check can fail).
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constantsOf, LAYOUT_PATH, namespacesOf, renderLayout, tokenFieldsOf } from '../../scripts/gen-layout';
import * as host from '../../src/detector/score/layout';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const ASSEMBLY = join(import.meta.dir, '../../assembly');
const read = (name: string) => readFileSync(join(ASSEMBLY, name), 'utf8');

/** Every difference between the host's layout and the assembly sources, as readable strings. */
export function layoutDifferences(tokenTs: string, layoutTs: string): string[] {
  const ns = namespacesOf(tokenTs);
  const consts = constantsOf(layoutTs);
  const out: string[] = [];
  const same = (what: string, asm: unknown, ts: unknown) => {
    if (JSON.stringify(asm) !== JSON.stringify(ts)) out.push(`${what}: assembly ${JSON.stringify(asm)}, host ${JSON.stringify(ts)}`);
  };
  const words = (bytes: Record<string, number>) => Object.fromEntries(Object.entries(bytes).map(([k, v]) => [k, v / 4]));
  same('Doc counters', ns.Doc, { ...host.Doc });
  same('sentence feature slots (SF)', ns.SF, { ...host.SF });
  same('sentence record fields (SR, u32 index)', words(ns.SR ?? {}), { ...host.SR });
  same('paragraph record fields (PR, u32 index)', words(ns.PR ?? {}), { ...host.PR });
  same('sentence flags', ns.SentFlag, { ...host.SentFlag });
  same('token kind mask', ns.Info?.KIND_MASK, host.KIND_MASK);
  same('word token kind', ns.Kind?.WORD, host.KIND_WORD);
  same('SENT_FEATURES', consts.SENT_FEATURES, host.SENT_FEATURES);
  same('DOC_COUNTERS', consts.DOC_COUNTERS, host.DOC_COUNTERS);
  same('token record (u32 words)', consts.TOKEN_BYTES / 4, host.TOKEN_WORDS32);
  same('sentence record (u32 words)', consts.SENT_BYTES / 4, host.SENT_WORDS32);
  same('paragraph record (u32 words)', consts.PARA_BYTES / 4, host.PARA_WORDS32);
  same('token record fields (TOKEN, u32 index)', words(tokenFieldsOf(layoutTs)), { ...host.TOKEN });
  // Every sentence feature slot and counter fits its area.
  if (Math.max(...Object.values(ns.SF ?? {})) >= consts.SENT_FEATURES) out.push('a sentence feature slot lies beyond SENT_FEATURES');
  if (Math.max(...Object.values(ns.Doc ?? {})) >= consts.DOC_COUNTERS) out.push('a document counter lies beyond DOC_COUNTERS');
  return out;
}

describe('wasm record layout', () => {
  it('is generated: src/detector/score/layout.ts is what `bun run gen:layout` writes from assembly/', () => {
    expect(readFileSync(LAYOUT_PATH, 'utf8')).toBe(renderLayout(read('token.ts'), read('layout.ts'), read('lexicon.ts')));
  });

  it('src/detector/score/layout.ts agrees with assembly/token.ts and assembly/layout.ts', () => {
    expect(layoutDifferences(read('token.ts'), read('layout.ts'))).toEqual([]);
  });

  it('fails when a slot is added or moved on one side only', () => {
    const token = read('token.ts');
    const moved = token.replace('export const HEDGE: u32 = 6;', 'export const HEDGE: u32 = 21;');
    expect(layoutDifferences(moved, read('layout.ts')).join('\n')).toContain('sentence feature slots (SF)');
    const added = token.replace(
      'export const STRAY_INVISIBLES: u32 = 20;',
      'export const STRAY_INVISIBLES: u32 = 20;\n  export const NEW_COUNTER: u32 = 21;',
    );
    expect(layoutDifferences(added, read('layout.ts'))).toEqual([expect.stringContaining('Doc counters')]);
    const bigger = read('layout.ts').replace('const SENT_BYTES: u32 = 32;', 'const SENT_BYTES: u32 = 36;');
    expect(layoutDifferences(token, bigger)).toEqual([expect.stringContaining('sentence record (u32 words)')]);
  });
});
