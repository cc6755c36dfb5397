/**
 * The reference human writers shipped with the model (model/reference.bin, built by `bun run
 * reference`; ./decide/reference.ts). Imported `with { type: 'file' }` so that `bun build --compile`
 * embeds it, like the model files (src/model-version.ts), but never hashed into the model version: a
 * rebuilt reference does not make stored profiles stale. Decoded once per process, on first use (a
 * profile build): a process that only detects never pays for it (~120 ms of CPU and ~19 MB resident:
 * model/README.md, "Reference writers").
 */
import { readFileSync } from 'node:fs';
import referencePath from '../../model/reference.bin' with { type: 'file' };
import { decodeReference, type ReferenceSet } from './decide/reference';

let shipped: ReferenceSet | undefined;

/** model/reference.bin, decoded on the first call (throws if the shipped file does not decode: test/engine/reference.test.ts proves it does). */
export function shippedReference(): ReferenceSet {
  shipped ??= decodeReference(new Uint8Array(readFileSync(referencePath)));
  return shipped;
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
