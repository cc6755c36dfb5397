/**
 * The Detector the service, batch mode and CLI use: engine (score) + explain (verdict, dimensions,
 * annotations, bullets), behind the interface in src/engine/types.ts.
 */
import type { Engine } from './score/engine';
import { loadEngine } from './score/load';
import { countWords, DEFAULT_SENSITIVITY } from '../contract';
import { explain } from './explain';
import type { Analysis, AnalyzeOptions, Detector } from './types';

/** Build a Detector around a loaded engine. */
export function detectorFor(engine: Engine): Detector {
  return {
    countWords,
    analyze(text: string, options: AnalyzeOptions = {}): Analysis {
      const t0 = performance.now();
      const sensitivity = options.sensitivity ?? DEFAULT_SENSITIVITY;
      const labelLang = options.labelLang ?? 'en';
      const r = engine.analyze(text);
      const e = explain(engine.model, engine.docTypes, text, r, sensitivity, labelLang);
      return {
        score: r.score,
        probability: r.probability,
        language: r.language,
        sensitivity,
        ...e,
        words: options.words ?? countWords(text),
        msCost: performance.now() - t0,
      };
    },
  };
}

/** Create the Detector from the committed model (loads the wasm core once). */
export async function createDetector(): Promise<Detector> {
  return detectorFor(await loadEngine());
}
