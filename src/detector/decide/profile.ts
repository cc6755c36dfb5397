/**
 * Calibration profiles (issue 34): the scores the model gave one population's known-human texts, per
 * language (never a text), the thresholds they imply for each mode, and the error measured on them.
 * A detection that names a profile decides with its thresholds where the profile covers the text
 * (language, document type, length) and with the stricter of the profile's and the global threshold
 * elsewhere; the score itself is never moved.
 *
 * THE SEAM (agreed before the work was split; change it only in one commit that updates every caller):
 * - `CalibrationProfile` is the one format: what `bun run calibrate --out` writes, what the store keeps
 *   (as JSON), what `detect --calibration FILE` reads and what the API returns (less `samples`).
 * - `buildProfile()` turns scored human texts into a profile; `applyProfile()` gives the decision stage
 *   the threshold to use and what to tell the caller. Both are pure: no I/O, no store, no text.
 * - The model's `modelVersion` is passed in by the caller (src/model-version.ts), never read here.
 * - Callers (issue 34's API, store and CLI work) use exactly these, implemented by the detector work:
 *     detector.profileSample(text): ProfileSample & { lang: ModelLang } | null   (null: under 20 words)
 *     buildProfile(samples, { name, modelVersion, createdAt }): CalibrationProfile
 *         throws a CodedError `calibration_too_small` (422) naming the language when a language with
 *         texts has fewer than MIN_PROFILE_TEXTS usable ones, or no language has any
 *     detector.analyze(text, { sensitivity, labelLang, profile?: CalibrationProfile })
 *         -> Analysis with `calibration: ProfileUse | null` and, when applied, a `measuredError`
 *            from the profile's own texts (MeasuredErrorView gains `upperBound`, a share 0-1, for
 *            both sources, and `source: 'model' | 'calibration'`)
 *     publicProfile(profile): the profile less `samples` (what the API returns)
 */
import type { ModelLang, Sensitivity } from '../../contract';
import type { DocType } from '../score/doctype';

/** The format of a profile file and stored profile; a reader refuses any other. */
export const PROFILE_FORMAT = 1;

/** What the profile keeps of one known-human text: its score and its kind, never its words. */
export interface ProfileSample {
  /** The decision variable the global thresholds are set on (the model's logit for the text). */
  logit: number;
  /** The calibrated probability (0-1) the model gave the text. */
  probability: number;
  /** Scored words (EngineResult.scoredWords): the length bucket. */
  words: number;
  docType: DocType;
}

/** One mode's threshold in one language of a profile, and what it did to the profile's own texts. */
export interface ProfileModeThreshold {
  /** Logit from which this mode calls a covered text AI, or null: too few texts to keep the promise (the global threshold applies). */
  thresholdLogit: number | null;
  /** The calibration texts at or above the threshold, of `texts`. */
  flagged: number;
  texts: number;
  /** flagged / texts. */
  rate: number;
  /** One-sided 95% upper bound on the share of the population's human texts this threshold flags. */
  upperBound: number;
}

/** One language of a profile. */
export interface ProfileLanguage {
  /** Usable texts (MIN_PROFILE_WORDS+ words) the thresholds were set on. */
  texts: number;
  /** Document types with enough texts to be covered; a text of another type gets `applied: false`. */
  docTypes: DocType[];
  /** Covered length range of scored words (`max` null: no upper bound); outside it, `applied: false`. */
  words: { min: number; max: number | null };
  modes: Record<Sensitivity, ProfileModeThreshold>;
  /** The scores (no text), sorted by logit: kept so thresholds can be recomputed under a new rule. */
  samples: ProfileSample[];
}

/** A calibration profile, as written to a file and kept in the store. */
export interface CalibrationProfile {
  format: typeof PROFILE_FORMAT;
  /** The store's id (absent in a file made offline). */
  id?: string;
  name: string;
  /** The model that scored the samples; under another model the profile is stale. */
  modelVersion: string;
  createdAt: string;
  languages: Partial<Record<ModelLang, ProfileLanguage>>;
}

/** Why a profile's threshold was not used for a text. */
export type ProfileReason = 'model_changed' | 'language_not_covered' | 'doc_type_not_covered' | 'length_not_covered';

/** What a detection with a profile tells the caller (`calibration` in every answer made with one). */
export interface ProfileUse {
  id: string | null;
  name: string;
  applied: boolean;
  reason: ProfileReason | null;
}
