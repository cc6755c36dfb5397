/**
 * A second thread for the held-out fits of `bun run train` and `bun run eval --loso`: it
 * featurizes the same data itself (deterministic, so its documents are this thread's documents;
 * sending 184,000 documents across would cost more than making them) and fits the families it is
 * given. Started before this thread's own prepare() so that both featurize at once.
 */
import type { DataOptions } from './data';
import type { SparseOptions } from '../../src/detector/learn/lr';

/** What the helper thread answers. */
export type HelperMessage = { ready: true } | { family: string; logits: Float64Array } | { error: string };

/** The helper as heldOutLogits uses it. */
export interface HeldOutHelper {
  /** Resolves once the helper has featurized the data. */
  ready: Promise<void>;
  /** The held-out logits of `family` (loso.ts fitWithout), fitted in the helper. */
  fit(family: string, sparse: SparseOptions): Promise<Float64Array>;
  /** Ends the thread (heldOutLogits does, once its fits are in: the helper holds a copy of the data). */
  close(): void;
}

/** A helper thread on the data `bun run train` reads with `data`; none on a single core, where it would only compete. */
export function startHeldOutHelper(data: DataOptions): HeldOutHelper | undefined {
  if (navigator.hardwareConcurrency < 2) return undefined;
  const worker = new Worker(new URL('./loso-worker.ts', import.meta.url).href);
  const waiting = new Map<string, { resolve: (l: Float64Array) => void; reject: (e: Error) => void }>();
  let markReady!: () => void;
  let failReady!: (e: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  const fail = (error: Error) => {
    failReady(error);
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };
  worker.onmessage = ({ data: m }: MessageEvent<HelperMessage>) => {
    if ('ready' in m) markReady();
    else if ('error' in m) fail(new Error(`held-out helper: ${m.error}`));
    else {
      waiting.get(m.family)?.resolve(m.logits);
      waiting.delete(m.family);
    }
  };
  worker.onerror = (event) => fail(new Error(`held-out helper: ${event.message}`));
  worker.postMessage({ data });
  return {
    ready,
    fit: (family, sparse) =>
      new Promise((resolve, reject) => {
        waiting.set(family, { resolve, reject });
        worker.postMessage({ family, sparse });
      }),
    close: () => worker.terminate(),
  };
}
