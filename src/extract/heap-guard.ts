/** A heap ceiling for the thread that extracts: checked from inside the parsers' loops. */
import { heapSize } from 'bun:jsc';
import { limitError } from './errors.ts';

const MB = 1024 * 1024;
/** Collect again once the heap has grown by 1/8 of the ceiling since the last collection. */
const GC_GROWTH_DIVISOR = 8;

/**
 * Watches this thread's JavaScriptCore heap (typed-array buffers included: 300 MB of Uint8Array
 * showed as ~240 MB of heapSize in a worker) and throws extract_limit (`memory`) past `limitBytes`.
 * heapSize() costs ~0.1 ms with a million live objects, so callers check every so often, not per item.
 */
export class HeapGuard {
  private readonly limitBytes: number;
  /** Heap right after this guard's last full collection (-1: none yet). */
  private liveAfterGc = -1;

  constructor(limitBytes: number) {
    if (!(limitBytes > 0)) throw new RangeError(`heap limit must be positive, got ${limitBytes}`);
    this.limitBytes = limitBytes;
  }

  /** Throws when the heap is over the ceiling after a full collection (one per 1/8 of the ceiling grown). */
  check(): void {
    const size = heapSize();
    if (size <= this.limitBytes) return;
    // Garbage counts in heapSize until the collector runs: collect before failing, unless the
    // heap has barely grown since the last collection (then it is live data, and collecting
    // again on every check would stall the thread).
    if (this.liveAfterGc < 0 || size - this.liveAfterGc > this.limitBytes / GC_GROWTH_DIVISOR) {
      Bun.gc(true);
      this.liveAfterGc = heapSize();
      if (this.liveAfterGc <= this.limitBytes) return;
    }
    const limitMb = Math.round(this.limitBytes / MB);
    throw limitError('memory', limitMb, `extraction needed more than ${limitMb} MB of heap`);
  }
}
