/** One engine per test process: loading the wasm core and the 2 MB weight table is done once. */
import { loadEngine } from '../../src/detector/score/load';
import { detectorFor } from '../../src/detector';
import type { Engine } from '../../src/detector/score/engine';
import type { Detector } from '../../src/detector/types';

let engine: Promise<Engine> | null = null;

/** The committed model's engine, shared by every test file. */
export function sharedEngine(): Promise<Engine> {
  engine ??= loadEngine();
  return engine;
}

/** A Detector around the shared engine (what the service uses). */
export async function sharedDetector(): Promise<Detector> {
  return detectorFor(await sharedEngine());
}

/** The sentences of `text` as the engine splits them, sliced from the submitted text. */
export function sentenceTexts(e: Engine, text: string): string[] {
  return e.analyze(text).sentences.map((s) => text.slice(s.start, s.end));
}

/** The paragraphs of `text` as the engine splits them, sliced from the submitted text. */
export function paragraphTexts(e: Engine, text: string): string[] {
  return e.analyze(text).paragraphs.map((p) => text.slice(p.start, p.end));
}
