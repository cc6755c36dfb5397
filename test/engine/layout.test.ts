/**
 * The host's view of the wasm records (src/engine/layout.ts) against the one spec, assembly/token.ts
 * and assembly/layout.ts: every namespace of constants, the record sizes and the token fields are read
 * from the AssemblyScript source and compared, so a slot added or moved on one side fails here
 * (issue 20). The comparison also runs on a tampered source, to show it can fail.
 */
import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as host from '../../src/detector/score/layout';

const ASSEMBLY = join(import.meta.dir, '../../assembly');
const read = (name: string) => readFileSync(join(ASSEMBLY, name), 'utf8');

/** The value of a constant's initialiser: a decimal or hex integer, or `a << b`. */
function evaluate(expr: string): number {
  const shift = /^(\w+)\s*<<\s*(\w+)$/.exec(expr.trim());
  if (shift) return Number(shift[1]) << Number(shift[2]);
  const n = Number(expr.trim());
  if (!Number.isInteger(n)) throw new Error(`layout test: cannot read "${expr}"`);
  return n;
}

/** `export namespace X { export const A: u32 = 1; ... }` -> { X: { A: 1 } }. */
export function namespacesOf(source: string): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const m of source.matchAll(/export namespace (\w+) \{([\s\S]*?)\n\}/g)) {
    out[m[1]] = Object.fromEntries([...m[2].matchAll(/export const (\w+): u32 = ([^;]+);/g)].map((c) => [c[1], evaluate(c[2])]));
  }
  return out;
}

/** Top-level `const NAME: u32 = N;` (exported or not). */
function constantsOf(source: string): Record<string, number> {
  return Object.fromEntries([...source.matchAll(/^(?:export )?const (\w+): u32 = ([^;]+);/gm)].map((c) => [c[1], evaluate(c[2])]));
}

/** Byte offset of each token field, from the accessors tokStart/tokEnd/... of assembly/layout.ts. */
function tokenFieldsOf(source: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of source.matchAll(
    /function tok(\w+)\(i: u32\): u32 \{ return load<u32>\(tokPtr \+ <usize>i \* TOKEN_BYTES(?:, (\d+))?\)/g,
  )) {
    out[m[1].toUpperCase()] = Number(m[2] ?? 0);
  }
  return out;
}

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
  it('src/engine/layout.ts agrees with assembly/token.ts and assembly/layout.ts', () => {
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
