/**
 * Loads the committed wasm core and model. The files are imported `with { type: 'file' }` so that
 * `bun build --compile` embeds them in the single binary.
 */
import wasmPath from '../../../model/detector.wasm' with { type: 'file' };
import weightsPath from '../../../model/weights.bin' with { type: 'file' };
import docTypePath from '../../../model/doctype.bin' with { type: 'file' };
import modelJson from '../../../model/model.json' with { type: 'json' };
import { Engine } from './engine';
import type { ModelFile } from './model';
import { parseDocTypeModel } from './doctype';

/** The committed model's metadata (weights excluded). */
export const MODEL = modelJson as unknown as ModelFile;

/** Create an engine from the committed wasm core and model. */
export async function loadEngine(): Promise<Engine> {
  const [wasm, weights, docTypes] = await Promise.all([wasmPath, weightsPath, docTypePath].map((p) => Bun.file(p).arrayBuffer()));
  return Engine.create(wasm, MODEL, new Uint8Array(weights), parseDocTypeModel(new Uint8Array(docTypes)));
}
