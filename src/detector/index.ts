/**
 * The detector: one spine, score -> decide -> explain, behind createDetector(). The HTTP modules,
 * batch mode and the CLI see the Detector interface (src/detector/types.ts); the bench, the eval
 * script and the tests also reach the stages one by one. Training builds its engines from
 * src/detector/score directly (it scores with weights it is still fitting).
 */
import {
  countWords,
  DEFAULT_LABEL_LANG,
  DEFAULT_SENSITIVITY,
  type LabelLang,
  type ModelLang,
  modelLang,
  type Sensitivity,
} from '../contract';
import { modelVersion as committedModelVersion } from '../model-version';
import { decide, type Decision, type ProfileContext } from './decide';
import { buildProfile, type CalibrationProfile, type LangProfileSample, MIN_PROFILE_WORDS, type ProfileMeta } from './decide/profile';
import { explain, type Explanation } from './explain';
import { detectDocType } from './score/doctype';
import type { Engine, EngineResult } from './score/engine';
import { loadEngine } from './score/load';
import { calibratedProbability } from './score/probability';
import type { Analysis, AnalyzeOptions, Detector } from './types';

export type { Decision, ProfileContext } from './decide';
export {
  buildProfile,
  type CalibrationProfile,
  isStale,
  type LangProfileSample,
  MIN_PROFILE_TEXTS,
  MIN_PROFILE_WORDS,
  PROFILE_ERROR_STATUS,
  PROFILE_FORMAT,
  PROFILE_REASONS,
  type ProfileErrorCode,
  type ProfileMeta,
  type ProfileReason,
  type ProfileUse,
  type PublicProfile,
  publicProfile,
} from './decide/profile';
export type { Explanation } from './explain';
export type { EngineResult } from './score/engine';
export type { Analysis, AnalyzeOptions, Detector } from './types';

/** The Detector with its stages exposed, each taking the previous stage's typed result. */
export interface DetectorPipeline extends Detector {
  readonly engine: Engine;
  /** Stage 1: normalise, run the wasm core, calibrated probability, segments. Does not depend on the mode. */
  score(text: string): EngineResult;
  /** Stage 2: verdict (mixed passages included) and document type for a mode, with a calibration profile's threshold where it applies. */
  decide(text: string, scored: EngineResult, mode: Sensitivity, withProfile?: ProfileContext | null): Decision;
  /** Stage 3: dimensions, annotations and bullets from the score and the decision, in a label language. */
  explain(text: string, scored: EngineResult, decision: Decision, lang: LabelLang): Explanation;
}

/**
 * Build the detector around a loaded engine. `modelVersion` is the version a calibration profile must
 * match (default: the committed model's, src/model-version.ts); a detector around another engine passes its own.
 */
export function detectorFor(engine: Engine, options: { modelVersion?: string } = {}): DetectorPipeline {
  const runningVersion = () => options.modelVersion ?? committedModelVersion();
  const stages = {
    engine,
    score: (text: string) => engine.analyze(text),
    decide: (text: string, scored: EngineResult, mode: Sensitivity, withProfile: ProfileContext | null = null) =>
      decide(engine.model, engine.docTypes, text, scored, mode, withProfile),
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
      const withProfile = options.profile ? { profile: options.profile, modelVersion: options.modelVersion ?? runningVersion() } : null;
      const e = stages.explain(text, r, stages.decide(text, r, sensitivity, withProfile), options.labelLang ?? DEFAULT_LABEL_LANG);
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
    profileSample(text: string): LangProfileSample | null {
      if (countWords(text) < MIN_PROFILE_WORDS) return null;
      const r = stages.score(text);
      return {
        lang: modelLang(r.language),
        logit: r.lexicalLogit,
        probability: r.probability,
        words: r.scoredWords,
        docType: detectDocType(engine.docTypes, text, r).type,
      };
    },
    probabilityAt: (lang: ModelLang, logit: number, words: number) => calibratedProbability(engine.model, lang, logit, words),
  };
}

/**
 * Texts in, profile out: profileSample() on each text, then buildProfile(), the two steps the CLI's
 * `calibrate` and POST /v1/calibrations also run (in their own loops: tallies of skipped files, time
 * slices). Texts under MIN_PROFILE_WORDS words are skipped; throws buildProfile()'s
 * CodedErrors. `meta.modelVersion` defaults to the committed model's.
 */
export function makeProfile(
  detector: Pick<Detector, 'profileSample' | 'probabilityAt'>,
  texts: Iterable<string>,
  meta: Omit<ProfileMeta, 'modelVersion' | 'createdAt'> & Partial<Pick<ProfileMeta, 'modelVersion' | 'createdAt'>>,
): CalibrationProfile {
  const samples: LangProfileSample[] = [];
  for (const text of texts) {
    const s = detector.profileSample(text);
    if (s) samples.push(s);
  }
  return buildProfile(samples, {
    probabilityAt: detector.probabilityAt?.bind(detector),
    ...meta,
    modelVersion: meta.modelVersion ?? committedModelVersion(),
    createdAt: meta.createdAt ?? new Date().toISOString(),
  });
}

/**
 * Create the detector from the committed model (loads the wasm core once), or around a given engine;
 * `maxTextChars` (MAX_TEXT_CHARS) bounds a text once normalised: TextTooLongError past it.
 */
export async function createDetector(options: { engine?: Engine; maxTextChars?: number } = {}): Promise<DetectorPipeline> {
  return detectorFor(options.engine ?? (await loadEngine({ maxTextChars: options.maxTextChars })));
}
