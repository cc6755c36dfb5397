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
  SENSITIVITIES,
  type Sensitivity,
} from '../contract';
import { modelVersion as committedModelVersion } from '../model-version';
import { decide, type Decision, type ProfileContext } from './decide';
import { decisionReading, evidenceOf } from './decide/adaptation';
import { guardOnLoad } from './decide/guard-load';
import { mixedPassage } from './decide/mixed';
import {
  type CalibrationProfile,
  isAdapted,
  MIN_PROFILE_WORDS,
  type ModelFacts,
  type ProfileInput,
  type ProfileMeta,
} from './decide/profile';
import type { ReferenceSet } from './decide/reference';
import { cellOf } from './decide/verdict';
import { explain, type Explanation } from './explain';
import { buildProfile } from './learn/profile';
import { detectDocType } from './score/doctype';
import { textForm } from './score/form';
import type { Engine, EngineResult } from './score/engine';
import { loadEngine } from './score/load';
import { calibratedProbability } from './score/probability';
import { loadShippedReference, referenceFor } from './shipped-reference';
import type { Analysis, AnalyzeOptions, Detector } from './types';

export type { Decision, ProfileContext } from './decide';
export { buildProfile, profileSteps } from './learn/profile';
export {
  type CalibrationProfile,
  isStale,
  type LangProfileSample,
  MIN_PROFILE_TEXTS,
  MIN_PROFILE_WORDS,
  PROFILE_ERROR_STATUS,
  PROFILE_FORMAT,
  PROFILE_REASONS,
  type ProfileErrorCode,
  type ModelFacts,
  type ProfileInput,
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
  /**
   * Stage 1: normalise, run the wasm core, calibrated probability, segments. Does not depend on the mode.
   * `evidence`: also emit the n-grams a profile's adaptation reads (decide/adaptation.ts evidenceOf).
   */
  score(text: string, options?: { evidence?: boolean }): EngineResult;
  /** Stage 2: verdict (mixed passages included) and document type for a mode, with a calibration profile's threshold where it applies. */
  decide(text: string, scored: EngineResult, mode: Sensitivity, withProfile?: ProfileContext | null): Decision;
  /** Stage 3: dimensions, annotations and bullets from the score and the decision, in a label language. */
  explain(text: string, scored: EngineResult, decision: Decision, lang: LabelLang): Explanation;
  /** What a profile is made with besides the scores (always present here), the reference writers included. */
  readonly facts: ModelFacts;
  /** The reference human writers profiles are made with (`facts.reference`): null when built for another model version. */
  readonly reference: ReferenceSet | null;
}

/** How detectorFor builds a detector around an engine. */
export interface DetectorOptions {
  /** The version a calibration profile must match (default: the committed model's, src/model-version.ts). */
  modelVersion?: string;
  /**
   * The reference writers (default: model/reference.bin, decoded on first use), used only when built
   * for `modelVersion`; null: none.
   */
  reference?: ReferenceSet | null;
}

/**
 * Build the detector around a loaded engine. `modelVersion` is the version a calibration profile must
 * match (default: the committed model's, src/model-version.ts); a detector around another engine passes
 * its own, and then gets no shipped reference set (stale) unless it passes one built for that version.
 */
export function detectorFor(engine: Engine, options: DetectorOptions = {}): DetectorPipeline {
  const runningVersion = () => options.modelVersion ?? committedModelVersion();
  const stages = {
    engine,
    score: (text: string, o: { evidence?: boolean } = {}) => engine.analyze(text, undefined, o.evidence ?? false),
    decide: (text: string, scored: EngineResult, mode: Sensitivity, withProfile: ProfileContext | null = null) =>
      decide(engine.model, engine.docTypes, text, scored, mode, withProfile),
    explain: (text: string, scored: EngineResult, decision: Decision, lang: LabelLang) =>
      explain(engine.model, text, scored, decision, lang),
  };
  const facts: ModelFacts = {
    probabilityAt: (lang: ModelLang, logit: number, words: number) => calibratedProbability(engine.model, lang, logit, words),
    conclusiveAt: (lang: ModelLang, words: number, mode: Sensitivity) => cellOf(engine.model, lang, words).conclusive[mode],
    globalLogitAt: (lang: ModelLang, mode: Sensitivity) => engine.model.thresholdLogits[lang][mode],
    // A getter: the set is decoded on the first profile build (spreading the facts reads it), then kept.
    get reference() {
      return referenceFor(runningVersion(), options.reference);
    },
  };
  return {
    ...stages,
    countWords,
    analyze(text: string, options: AnalyzeOptions = {}): Analysis {
      const t0 = performance.now();
      const sensitivity = options.sensitivity ?? DEFAULT_SENSITIVITY;
      // An adapted profile reads the text's n-grams: have the core emit them (the score is the same).
      // An older profile (format 1 or 2) is guarded on load with the shipped reference writers, once (decide/guard-load.ts).
      const profile = options.profile ? guardOnLoad(options.profile, facts) : null;
      const r = stages.score(text, { evidence: isAdapted(profile) });
      const withProfile = profile ? { profile, modelVersion: options.modelVersion ?? runningVersion() } : null;
      const decision = stages.decide(text, r, sensitivity, withProfile);
      const e = stages.explain(text, r, decision, options.labelLang ?? DEFAULT_LABEL_LANG);
      // The score, passages and sentence scores the verdict was decided on (the adapted ones when adapted).
      const read = decisionReading(r, decision);
      return {
        score: read.score,
        probability: read.probability,
        language: r.language,
        sensitivity,
        ...e,
        sentenceScores: read.sentenceScores.map(({ start, end, words, probability }) => ({
          start,
          end,
          words,
          score: Math.round(probability * 100),
        })),
        words: options.words ?? countWords(text),
        msCost: performance.now() - t0,
      };
    },
    profileSample(text: string): ProfileInput | null {
      if (countWords(text) < MIN_PROFILE_WORDS) return null;
      const r = stages.score(text, { evidence: true });
      const lang = modelLang(r.language);
      const mixed = SENSITIVITIES.filter((mode) => mixedPassage(engine.model, r, mode) !== null);
      return {
        lang,
        logit: r.lexicalLogit,
        probability: r.probability,
        words: r.scoredWords,
        docType: detectDocType(engine.docTypes, text, r).type,
        ...(mixed.length ? { mixed } : {}),
        evidence: evidenceOf(r)!,
        // Never kept: what a profile's maker compares between AI examples and human texts (issue 43 item 4).
        form: textForm(text),
      };
    },
    facts,
    get reference() {
      return facts.reference ?? null;
    },
    async loadReference(tick = () => new Promise<void>((resolve) => setImmediate(resolve))) {
      if (options.reference === undefined) await loadShippedReference(tick);
    },
  };
}

/**
 * Texts in, profile out: profileSample() on each human text and AI example, then buildProfile(), the
 * steps the CLI's `calibrate` and POST /v1/calibrations also run (in their own loops: tallies of skipped
 * files, duplicates, time slices). Texts under MIN_PROFILE_WORDS words are skipped; throws
 * buildProfile()'s CodedErrors. `meta.modelVersion` defaults to the committed model's.
 */
export function makeProfile(
  detector: Pick<Detector, 'profileSample' | 'facts'>,
  texts: Iterable<string>,
  meta: Omit<ProfileMeta, 'modelVersion' | 'createdAt'> & Partial<Pick<ProfileMeta, 'modelVersion' | 'createdAt'>>,
  aiTexts: Iterable<string> = [],
): CalibrationProfile {
  const sample = (all: Iterable<string>) => {
    const out: ProfileInput[] = [];
    for (const text of all) {
      const s = detector.profileSample(text);
      if (s) out.push(s);
    }
    return out;
  };
  return buildProfile(
    sample(texts),
    {
      ...detector.facts,
      ...meta,
      modelVersion: meta.modelVersion ?? committedModelVersion(),
      createdAt: meta.createdAt ?? new Date().toISOString(),
    },
    sample(aiTexts),
  );
}

/**
 * Create the detector from the committed model (loads the wasm core once), or around a given engine;
 * `maxTextChars` (MAX_TEXT_CHARS) bounds a text once normalised: TextTooLongError past it.
 */
export async function createDetector(options: { engine?: Engine; maxTextChars?: number } = {}): Promise<DetectorPipeline> {
  return detectorFor(options.engine ?? (await loadEngine({ maxTextChars: options.maxTextChars })));
}
