/**
 * Slicing a fit by its work, not by its texts (issue 44 item 3): the API runs a profile's build as a
 * generator and serves other requests between its steps, so a step must end after a bounded amount of
 * work whatever the texts' sizes. Yielding every 500 documents let one step of 100 texts of 500 KB hold
 * the event loop 3.2 s (bench/fit-slices.ts).
 */

/**
 * Units of work in one step of a fit: one unit is an n-gram updated by a sparse pass (~5 ns here) or a
 * style measure read; 100,000 of them are 0.5-1 ms, well under the API's 20 ms slice (the API runs
 * several steps per slice: a step's resumption costs microseconds). bench/fit-slices.ts prints the
 * longest step, before and after (docs/faults.md).
 */
export const WORK_PER_SLICE = 100_000;
/**
 * The units of an n-gram counted or looked up in the table indexed by n-gram (16 MB: a cache miss each)
 * or of a table entry first written (the kernel zeroes its page): 4-8x an update of a pass, measured.
 */
export const TABLE_WORK = 8;

/** Work done since the last yield: the caller counts what it did and yields when a slice is used up. */
export class WorkSlices {
  private done = 0;

  constructor(readonly per: number = WORK_PER_SLICE) {}

  /** Counts `units` of work; true when the slice is used up (the caller yields; the count starts again). */
  spent(units: number): boolean {
    this.done += units;
    if (this.done < this.per) return false;
    this.done = 0;
    return true;
  }
}
