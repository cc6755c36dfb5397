/**
 * Turns of the event loop for work done in many small pieces that all start at once (a batch's 5,000
 * files are planned concurrently: TXT extraction and word counts run inline, one microtask after
 * another, and never gave the loop back: another key's detection waited 0.9-5.8 s; issue 44 item 8).
 * Each piece runs through `inTurn(work)`: once a slice has run SLICE_MS, the pieces wait for one shared
 * timer turn, so the requests of other keys are served between slices.
 */

/** Work between two turns given back: another request waits about this long for the planning of a batch. */
export const SLICE_MS = 10;

/** Runs a piece of synchronous work in the current slice, or after the next turn when the slice is spent. */
export type InTurn = <T>(work: () => T) => Promise<T>;

/**
 * A slicer of pieces of work. The check and the work run in one synchronous step: a check that awaited
 * before its work let all 5,000 pieces pass their checks before any of them worked.
 */
export function createTurns(sliceMs: number = SLICE_MS): InTurn {
  let sliceStart = performance.now();
  let next: Promise<void> | null = null;
  const spent = () => performance.now() - sliceStart >= sliceMs;
  const nextTurn = () => {
    // A timer, not setImmediate: Bun runs immediates queued by an immediate in the same turn, so a chain
    // of them would never let the loop read a socket.
    next ??= new Promise<void>((resolve) =>
      setTimeout(() => {
        next = null;
        sliceStart = performance.now();
        resolve();
      }, 0),
    );
    return next;
  };
  return async (work) => {
    while (spent()) await nextTurn();
    return work();
  };
}
