/**
 * The streamed answers still being written (batch streams): a stopping server waits for them to
 * reach their clients within its grace period, and says `forced` when it had to cut one
 * (issue 33: it exited with lines still buffered while saying `forced: false`).
 */

/** Counts the streams not finished yet. */
export interface OpenStreams {
  /** One more stream; returns the function that ends it (calling it again does nothing). */
  open(): () => void;
  /** How many are open now. */
  readonly count: number;
}

/** A counter of open streams for one process. */
export function createOpenStreams(): OpenStreams {
  let count = 0;
  return {
    open() {
      count++;
      let open = true;
      return () => {
        if (!open) return;
        open = false;
        count--;
      };
    },
    get count() {
      return count;
    },
  };
}
