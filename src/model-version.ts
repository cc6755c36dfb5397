/**
 * The model version every result carries (issue 22): the model format and feature version from
 * model/model.json, then the first 12 hex digits of a SHA-256 over the model as loaded: the bytes of
 * the wasm core, weights.bin and doctype.bin, and model.json's content (serialized as parsed), e.g.
 * `2.6-1f3a9c0b7d2e`. Derived at run time, never written by hand: a retrained model (or a rebuilt
 * core) changes it by itself, so an auditor can tie a stored score to the files that produced it.
 *
 * The engine loader reads the files through readModelFiles() and hands the bytes to
 * rememberModelVersion(): hashing bytes already in memory takes ~3 ms, reading the 4.9 MB again
 * took 30-50 ms of every cold start on the bench machine (where touching fresh memory is slow).
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

/** The contents of MODEL_FILES, in that order. */
export type ModelFileBytes = readonly (ArrayBuffer | Uint8Array)[];

/** model.json's fields the version names. */
interface ModelMeta {
  format: unknown;
  featureVersion: unknown;
}

/** Reads MODEL_FILES (the engine loader's one read of the model). */
export function readModelFiles(): Promise<ArrayBuffer[]> {
  return Promise.all(MODEL_FILES.map((path) => Bun.file(path).arrayBuffer()));
}

/** `<format>.<featureVersion>-<hash prefix>` of the binary files' bytes (MODEL_FILES order) and the parsed model.json. */
export function modelVersionOf(files: ModelFileBytes, meta: ModelMeta = modelJson as unknown as ModelMeta): string {
  const hasher = new Bun.CryptoHasher('sha256');
  for (const bytes of files) hasher.update(bytes);
  hasher.update(JSON.stringify(meta));
  return `${meta.format}.${meta.featureVersion}-${hasher.digest('hex').slice(0, MODEL_HASH_DIGITS)}`;
}

let cached: string | undefined;

/** Computes the version from the committed model's bytes just read by the loader, once per process. */
export function rememberModelVersion(files: ModelFileBytes): string {
  cached ??= modelVersionOf(files);
  return cached;
}

/** The version of the committed model: as the loader computed it, or (nothing loaded yet) from the files read now. */
export function modelVersion(): string {
  cached ??= modelVersionOf(MODEL_FILES.map((path) => readFileSync(path)));
  return cached;
}
