/**
 * The folds of an adaptation's cross-fit (issue 38; groups: issues 43 and 44): each text's fold, so
 * that every text is scored by a fit that never saw it, nor any text of its group. Texts sharing a
 * group (near-copies of one text; a reference population) go to the same fold: a fit that saw a text's
 * near-copy, or its population, would score it as if it had seen it.
 */
import { shuffled } from './stats';

/** Folds of the cross-fit: each text is scored by a fit trained on the other four fifths. */
export const ADAPTATION_FOLDS = 5;

/** One kind of text dealt to the folds: its members' indexes, their groups, and the seed of its shuffle. */
export interface FoldClass {
  members: readonly number[];
  /** Each member's group (undefined: a group of its own). Groups are shared across the classes of one `space`. */
  group: (i: number) => number | undefined;
  /** Classes of the same space share their groups (the site's human texts and AI examples); others do not. */
  space: number;
  seed: number;
}

/**
 * Each text's fold: each class's groups shuffled (seeded), the largest first, each to the fold with the
 * fewest of the class's texts so far (ties: the lowest fold), or to its group's fold where another class
 * of the space placed it. Without groups: the members shuffled and dealt round-robin, as before groups.
 */
export function foldsOf(n: number, classes: readonly FoldClass[]): Int32Array {
  const fold = new Int32Array(n);
  const placed = new Map<string, number>();
  for (const c of classes) {
    const units: number[][] = [];
    const unitOf = new Map<number, number[]>();
    for (const i of c.members) {
      const g = c.group(i);
      if (g === undefined) units.push([i]);
      else {
        let unit = unitOf.get(g);
        if (!unit) {
          unit = [];
          unitOf.set(g, unit);
          units.push(unit);
        }
        unit.push(i);
      }
    }
    // Largest first (a stable sort: equal sizes keep the shuffled order), so that the folds stay even.
    const order = shuffled(units, c.seed).sort((a, b) => b.length - a.length);
    const load = new Array<number>(ADAPTATION_FOLDS).fill(0);
    for (const unit of order) {
      const g = c.group(unit[0]);
      const key = g === undefined ? null : `${c.space}:${g}`;
      let f = key === null ? undefined : placed.get(key);
      if (f === undefined) {
        f = 0;
        for (let k = 1; k < ADAPTATION_FOLDS; k++) if (load[k] < load[f]) f = k;
      }
      if (key !== null) placed.set(key, f);
      load[f] += unit.length;
      for (const i of unit) fold[i] = f;
    }
  }
  return fold;
}
