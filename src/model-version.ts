/**
 * The model version every result carries (issue 22): the model format and feature version from
 * model/model.json, then the first 12 hex digits of the SHA-256 of the model files as they are
 * loaded (the wasm core, model.json, weights.bin, doctype.bin, in that order), e.g. `2.6-1f3a9c0b7d2e`.
 * Derived from the bytes at run time, never written by hand: a retrained model (or a rebuilt core)
 * changes it by itself, so an auditor can tie a stored score to the exact files that produced it.
 */
import { readFileSync } from 'node:fs';
import wasmPath from '../model/detector.wasm' with { type: 'file' };
import docTypePath from '../model/doctype.bin' with { type: 'file' };
import modelJsonFile from '../model/model.json' with { type: 'file' };
import weightsPath from '../model/weights.bin' with { type: 'file' };

/** Hex digits of the hash kept: 48 bits, so two different models share a version with odds of 1 in 2^48. */
export const MODEL_HASH_DIGITS = 12;

/** The model files in hashing order (paths; embedded in the compiled binary). */
// model.json is imported as a file (its path), not parsed: TypeScript only knows the JSON import.
export const MODEL_FILES: readonly string[] = [wasmPath, modelJsonFile as unknown as string, weightsPath, docTypePath];

/** `<format>.<featureVersion>-<hash prefix>` of the given files (model.json must be the second). */
export function modelVersionOf(paths: readonly string[] = MODEL_FILES): string {
  const hasher = new Bun.CryptoHasher('sha256');
  let meta: { format?: unknown; featureVersion?: unknown } = {};
  paths.forEach((path, i) => {
    const bytes = readFileSync(path);
    if (i === 1) meta = JSON.parse(bytes.toString('utf8'));
    hasher.update(bytes);
  });
  return `${meta.format}.${meta.featureVersion}-${hasher.digest('hex').slice(0, MODEL_HASH_DIGITS)}`;
}

let cached: string | undefined;

/** The version of the committed model, computed once per process (~50 ms for 4.9 MB on this machine). */
export function modelVersion(): string {
  cached ??= modelVersionOf();
  return cached;
}
