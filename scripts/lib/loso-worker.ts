/** The held-out helper's thread (loso-helper.ts): featurize as the main thread does, then fit the families asked for. */
import type { DataOptions } from './data';
import type { HelperMessage } from './loso-helper';
import { fitWithout } from './loso';
import type { SparseOptions } from '../../src/detector/learn/lr';
import { prepare, type Prepared } from './pipeline';

declare const self: Worker;
let prepared: Prepared | null = null;
const answer = (m: HelperMessage) => self.postMessage(m);

self.onmessage = async ({ data: m }: MessageEvent<{ data: DataOptions } | { family: string; sparse: SparseOptions }>) => {
  try {
    if ('data' in m) {
      prepared = await prepare(m.data);
      answer({ ready: true });
    } else {
      answer({ family: m.family, logits: fitWithout(prepared!.docs, m.family, m.sparse) });
    }
  } catch (error) {
    answer({ error: (error as Error)?.stack ?? String(error) });
  }
};
