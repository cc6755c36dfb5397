/**
 * The model version every result carries (issue 22): the model format and feature version from
 * model/model.json, then the first 12 hex digits of a SHA-256 over the model as loaded: the bytes of
 * the wasm core, weights.bin and doctype.bin, and model.json's content (serialized as parsed), e.g.
 * `2.6-1f3a9c0b7d2e`. Derived at run time, never written by hand: a retrained model (or a rebuilt
 * core) changes it by itself, so an auditor can tie a stored score to the files that produced it.
 */
import { readFileSync } from 'node:fs';
import wasmPath from '../model/detector.wasm' with { type: 'file' };
import docTypePath from '../model/doctype.bin' with { type: 'file' };
// Imported as JSON, as src/detector/score/load.ts does: one file imported with two attribute types breaks the compiled binary.
import modelJson from '../model/model.json' with { type: 'json' };
import weightsPath from '../model/weights.bin' with { type: 'file' };

/** Hex digits of the hash kept: 48 bits, so two different models share a version with odds of 1 in 2^48. */
export const MODEL_HASH_DIGITS = 12;

/** The binary model files in hashing order (paths; embedded in the compiled binary). */
export const MODEL_FILES: readonly string[] = [wasmPath, weightsPath, docTypePath];

/** model.json's fields the version names. */
interface ModelMeta {
  format: unknown;
  featureVersion: unknown;
}

/** `<format>.<featureVersion>-<hash prefix>` of the given binary files and parsed model.json. */
export function modelVersionOf(paths: readonly string[] = MODEL_FILES, meta: ModelMeta = modelJson as unknown as ModelMeta): string {
  const hasher = new Bun.CryptoHasher('sha256');
  for (const path of paths) hasher.update(readFileSync(path));
  hasher.update(JSON.stringify(meta));
  return `${meta.format}.${meta.featureVersion}-${hasher.digest('hex').slice(0, MODEL_HASH_DIGITS)}`;
}

let cached: string | undefined;

/** The version of the committed model, computed once per process (~50 ms for 4.9 MB on this machine). */
export function modelVersion(): string {
  cached ??= modelVersionOf();
  return cached;
}
