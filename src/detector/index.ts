/**
 * The detector: one spine, score -> decide -> explain, behind createDetector(). The HTTP modules,
 * batch mode and the CLI see the Detector interface (src/detector/types.ts); the bench, the eval
 * script and the tests also reach the stages one by one. Training builds its engines from
 * src/detector/score directly (it scores with weights it is still fitting).
 */
import { countWords, DEFAULT_LABEL_LANG, DEFAULT_SENSITIVITY, type LabelLang, type Sensitivity } from '../contract';
import { decide, type Decision } from './decide';
import { explain, type Explanation } from './explain';
import type { Engine, EngineResult } from './score/engine';
import { loadEngine } from './score/load';
import type { Analysis, AnalyzeOptions, Detector } from './types';

export type { Decision } from './decide';
export type { Explanation } from './explain';
export type { EngineResult } from './score/engine';
export type { Analysis, AnalyzeOptions, Detector } from './types';

/** The Detector with its stages exposed, each taking the previous stage's typed result. */
export interface DetectorPipeline extends Detector {
  readonly engine: Engine;
  /** Stage 1: normalise, run the wasm core, calibrated probability, segments. Does not depend on the mode. */
  score(text: string): EngineResult;
  /** Stage 2: verdict (mixed passages included) and document type for a mode. */
  decide(text: string, scored: EngineResult, mode: Sensitivity): Decision;
  /** Stage 3: dimensions, annotations and bullets from the score and the decision, in a label language. */
  explain(text: string, scored: EngineResult, decision: Decision, lang: LabelLang): Explanation;
}

/** Build the detector around a loaded engine. */
export function detectorFor(engine: Engine): DetectorPipeline {
  const stages = {
    engine,
    score: (text: string) => engine.analyze(text),
    decide: (text: string, scored: EngineResult, mode: Sensitivity) => decide(engine.model, engine.docTypes, text, scored, mode),
    explain: (text: string, scored: EngineResult, decision: Decision, lang: LabelLang) =>
      explain(engine.model, text, scored, decision, lang),
  };
  return {
    ...stages,
    countWords,
    analyze(text: string, options: AnalyzeOptions = {}): Analysis {
      const t0 = performance.now();
      const sensitivity = options.sensitivity ?? DEFAULT_SENSITIVITY;
      const r = stages.score(text);
      const e = stages.explain(text, r, stages.decide(text, r, sensitivity), options.labelLang ?? DEFAULT_LABEL_LANG);
      return {
        score: r.score,
        probability: r.probability,
        language: r.language,
        sensitivity,
        ...e,
        sentenceScores: r.sentenceScores.map(({ start, end, words, probability }) => ({
          start,
          end,
          words,
          score: Math.round(probability * 100),
        })),
        words: options.words ?? countWords(text),
        msCost: performance.now() - t0,
      };
    },
  };
}

/** Create the detector from the committed model (loads the wasm core once), or around a given engine. */
export async function createDetector(options: { engine?: Engine } = {}): Promise<DetectorPipeline> {
  return detectorFor(options.engine ?? (await loadEngine()));
}
