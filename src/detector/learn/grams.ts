/**
 * Which n-grams an adaptation weighs (issue 38; the privacy rule: ../decide/adaptation.ts
 * MIN_FEATURE_TEXTS): those in MIN_FEATURE_TEXTS+ of the profile's own texts, the MAX_ADAPTATION_GRAMS
 * most frequent (ties: the lower index). Counted in a table indexed by n-gram (the core's hashed space
 * is 2^22: 16 MB), in slices of work (./slices.ts): sorting every n-gram of the set was one step of
 * 3.2 s for 100 texts of 500 KB and held a copy of them all (issue 44 items 3 and 7); a Map of a
 * million entries took 3.2 s (2,500 texts).
 */
import { MIN_FEATURE_TEXTS } from '../decide/adaptation';
import type { FitText } from './fit-text';
import { TABLE_WORK, type WorkSlices } from './slices';

/** Most weighted n-grams (the most frequent first): bounds a profile's size (~20 bytes each as JSON). */
export const MAX_ADAPTATION_GRAMS = 60_000;
/** The largest n-gram space counted (2^26: a 256 MB table); the core's is 2^22. Evidence past it is not the core's. */
const MAX_GRAM_SPACE = 1 << 26;

/** The weighted n-grams and where each is among them. */
export interface GramTable {
  /** The weighted n-grams, ascending. */
  grams: Uint32Array;
  /** By n-gram: its index in `grams`, or -1 when it has no weight (n-grams past the end: none). */
  index: Int32Array;
}

/** The index in `table.grams` of n-gram `g`, or -1. */
export function gramIndex(table: GramTable, g: number): number {
  return g < table.index.length ? table.index[g] : -1;
}

/** The weighted n-grams of `texts` (the site's own: no other text's n-gram counts towards the rule), in slices. */
export function* selectGrams(texts: readonly FitText[], slices: WorkSlices): Generator<void, GramTable> {
  let max = -1;
  for (const t of texts) {
    max = Math.max(max, largest(t.evidence.grams));
    if (slices.spent(t.evidence.grams.length)) yield;
  }
  if (max >= MAX_GRAM_SPACE) throw new Error(`an n-gram index of ${max} is past the core's space`);
  // Texts with each n-gram, then (the same table) each n-gram's index among the weighted ones.
  const table = new Int32Array(max + 1);
  // Its pages written once in slices first: the first touch of 16 MB (the kernel's zeroed pages) took
  // 60-80 ms of one step here, when the counting touched them all at once.
  for (let from = 0; from <= max; from += SCAN) {
    table.fill(0, from, Math.min(max + 1, from + SCAN));
    if (slices.spent(SCAN * TABLE_WORK)) yield;
  }
  for (const t of texts) {
    countInto(table, t.evidence.grams);
    if (slices.spent(t.evidence.grams.length * TABLE_WORK)) yield;
  }
  // How many n-grams have each count: the count from which the MAX_ADAPTATION_GRAMS most frequent are kept.
  // A count past the texts' number (evidence with a repeated n-gram, which the core never emits) counts as that number.
  const most = texts.length;
  const perCount = new Float64Array(most + 1);
  let candidates = 0;
  for (let from = 0; from <= max; from += SCAN) {
    candidates += histogram(table, from, Math.min(max + 1, from + SCAN), most, perCount);
    if (slices.spent(SCAN)) yield;
  }
  // Kept: every n-gram counted more than `cut` times, and the first `atCut` (ascending: the lower index wins a tie) counted `cut` times.
  const keep = { cut: MIN_FEATURE_TEXTS, atCut: Number.POSITIVE_INFINITY, kept: 0, most };
  if (candidates > MAX_ADAPTATION_GRAMS) {
    let above = 0;
    keep.cut = most;
    while (above + perCount[keep.cut] <= MAX_ADAPTATION_GRAMS) above += perCount[keep.cut--];
    keep.atCut = MAX_ADAPTATION_GRAMS - above;
  }
  const grams = new Uint32Array(Math.min(candidates, MAX_ADAPTATION_GRAMS));
  for (let from = 0; from <= max; from += SCAN) {
    indexRange(table, from, Math.min(max + 1, from + SCAN), keep, grams);
    if (slices.spent(SCAN)) yield;
  }
  return { grams, index: table };
}

/** Entries of the table read in one go (the loops live in plain functions: a generator's own ran 10x slower here). */
const SCAN = 1 << 14;

function largest(grams: Uint32Array): number {
  let max = -1;
  for (let k = 0; k < grams.length; k++) if (grams[k] > max) max = grams[k];
  return max;
}

function countInto(table: Int32Array, grams: Uint32Array): void {
  for (let k = 0; k < grams.length; k++) table[grams[k]]++;
}

/** Adds the counts of n-grams [from, to) that reach MIN_FEATURE_TEXTS to `perCount`; returns how many do. */
function histogram(table: Int32Array, from: number, to: number, most: number, perCount: Float64Array): number {
  let candidates = 0;
  for (let g = from; g < to; g++) {
    const c = Math.min(table[g], most);
    if (c >= MIN_FEATURE_TEXTS) {
      perCount[c]++;
      candidates++;
    }
  }
  return candidates;
}

/** Turns the counts of n-grams [from, to) into their index among the kept ones (-1: not kept), appending the kept to `grams`. */
function indexRange(
  table: Int32Array,
  from: number,
  to: number,
  keep: { cut: number; atCut: number; kept: number; most: number },
  grams: Uint32Array,
): void {
  for (let g = from; g < to; g++) {
    const c = Math.min(table[g], keep.most);
    if (c > keep.cut || (c === keep.cut && keep.atCut-- > 0)) {
      grams[keep.kept] = g;
      table[g] = keep.kept++;
    } else table[g] = -1;
  }
}
