/**
 * Loads the committed wasm core and model. The files are imported `with { type: 'file' }` (in
 * src/model-version.ts, which reads them once for the engine and its version) so that
 * `bun build --compile` embeds them in the single binary.
 */
import modelJson from '../../../model/model.json' with { type: 'json' };
import { Engine } from './engine';
import type { WasmCoreOptions } from './wasm';
import type { ModelFile } from './model';
import { parseDocTypeModel } from './doctype';
import { readModelFiles, rememberModelVersion } from '../../model-version';

/** The committed model's metadata (weights excluded). */
export const MODEL = modelJson as unknown as ModelFile;

/** Create an engine from the committed wasm core and model (`options.maxTextChars`: MAX_TEXT_CHARS). */
export async function loadEngine(options: WasmCoreOptions = {}): Promise<Engine> {
  const files = await readModelFiles();
  // The version is hashed from these bytes now (~3 ms), instead of the files being read a second time for it.
  rememberModelVersion(files);
  const [wasm, weights, docTypes] = files;
  return Engine.create(wasm, MODEL, new Uint8Array(weights), parseDocTypeModel(new Uint8Array(docTypes)), options);
}
