/**
 * The reference human writers shipped with the model (model/reference.bin, built by `bun run
 * reference`; ./decide/reference.ts). Imported `with { type: 'file' }` so that `bun build --compile`
 * embeds it, like the model files (src/model-version.ts), but never hashed into the model version: a
 * rebuilt reference does not make stored profiles stale. Decoded once per process, on first use (a
 * profile build): a process that only detects never pays for it (~100-240 ms of CPU and ~18 MB held:
 * model/README.md, "Reference writers").
 */
import { readFileSync } from 'node:fs';
import referencePath from '../../model/reference.bin' with { type: 'file' };
import { decodeReference, decodeReferenceSteps, type ReferenceSet } from './decide/reference';

let shipped: ReferenceSet | undefined;
let loading: Promise<ReferenceSet> | undefined;

const fileBytes = () => new Uint8Array(readFileSync(referencePath));

/** model/reference.bin, decoded at once on the first call (throws if the shipped file does not decode: test/engine/reference.test.ts proves it does). */
export function shippedReference(): ReferenceSet {
  shipped ??= decodeReference(fileBytes());
  return shipped;
}

/**
 * The same set, decoded in steps with `tick()` awaited between them (a server's time slices), so that
 * the first profile build of a process does not hold the event loop for the whole decode; once per
 * process (concurrent callers share the one decode; one whose tick throws, e.g. its client closed, ends it for all
 of them, and the next call starts again).
 */
export function loadShippedReference(tick: () => Promise<void>): Promise<ReferenceSet> {
  if (shipped) return Promise.resolve(shipped);
  loading ??= (async () => {
    const steps = decodeReferenceSteps(fileBytes());
    try {
      for (;;) {
        const step = steps.next();
        if (step.done) {
          shipped ??= step.value;
          return shipped;
        }
        await tick();
      }
    } finally {
      // Done, or the caller's tick threw (its client went away): the next caller starts afresh.
      loading = undefined;
    }
  })();
  return loading;
}

/**
 * The set a detector of `modelVersion` uses: `given` (a test's or an eval's; default the shipped one)
 * when it was built for that version, else null: a reference of another model is stale, and a profile
 * is then made without it (no guard, no reference negatives), silently (nothing per request).
 */
export function referenceFor(modelVersion: string, given?: ReferenceSet | null): ReferenceSet | null {
  const set = given === undefined ? shippedReference() : given;
  return set && set.modelVersion === modelVersion ? set : null;
}
