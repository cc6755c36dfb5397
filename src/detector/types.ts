/** Public types of the detection engine and of the full analysis the HTTP layer returns. */

import type { LabelLang, ModelLang, Sensitivity, TextLang, VerdictKey } from '../contract';
import type { CalibrationProfile, ModelFacts, ProfileInput, ProfileUse } from './decide/profile';

export type { CalibrationProfile, LangProfileSample, ProfileInput, ProfileUse } from './decide/profile';

/** A half-open span [start, end) in UTF-16 code units of the text exactly as submitted. */
export interface Span {
  start: number;
  end: number;
}

export interface DimensionResult {
  id: string;
  label: string;
  detected: boolean;
  /** False when the dimension cannot fire for the text's language (the model switched it off there): not counted in totalDimensions. */
  enabled: boolean;
}

export interface DimensionRef {
  id: string;
  label: string;
}

export interface TextAnnotation extends Span {
  /** The sentence, shortened to at most 200 characters with "…" when longer. */
  sentence: string;
  dims: DimensionRef[];
}

/** Which way a bullet's signal points. */
export const BULLET_LEANINGS = ['ai', 'human', 'neutral'] as const;
export type BulletLeaning = (typeof BULLET_LEANINGS)[number];

export interface Bullet extends Span {
  /** The signal: a dimension id, or a human-side or neutral signal (`personal_voice`, `short_text`...). */
  id: string;
  leaning: BulletLeaning;
  text: string;
  /** A passage of the submitted text: text.slice(start, end) === example. */
  example: string;
}

/** A passage of one author (mixed authorship), in text order; UTF-16 offsets like the annotations. */
export interface TextSegment extends Span {
  label: 'ai' | 'human';
  /** 0-100: the passage's mean AI probability. */
  score: number;
}

/**
 * The measured error beside a verdict: how often the mode flagged held-out human texts of the
 * text's kind (its language, document type and length) in the project's own tests, or, where a
 * calibration profile applies, the profile's own human texts.
 */
export interface MeasuredErrorView {
  /** Share (0 to 1) of those human texts the mode flagged as AI; null when the kind was not measured. */
  humanFlaggedRate: number | null;
  /** How many human texts it was measured on (the model's held-out texts, or the profile's). */
  humanTexts: number;
  /** One-sided 95% upper bound (exact binomial) on the share (0 to 1) of such human texts the mode flags; null when not measured. */
  upperBound: number | null;
  /** Where the figures come from: the model's held-out tests, or the calibration profile's texts. */
  source: 'model' | 'calibration';
  /** The document type it was measured on, or null for every type. */
  docType: string | null;
  /** The length range in words it was measured on (`max` null: no upper bound), or null for every length. */
  words: { min: number; max: number | null } | null;
  /** Under a profile that applied: what its bar flags of reference writers unlike the profile's (absent without them). */
  otherWriters?: import('./decide/guard').OtherWriters;
  /** The same in one sentence, in the label language (and, with `otherWriters`, a second sentence on them). */
  text: string;
}

/** One sentence's AI score (sentences with at least one word, in text order); UTF-16 offsets like the annotations. */
export interface SentenceScore extends Span {
  /** The sentence's words as the scorer counts them (the weights of a passage's mean). */
  words: number;
  /** 0-100: the calibrated sentence reading the passages (`segments`) are scored from. */
  score: number;
}

/** Everything the HTTP response and the CLI need about one text. */
export interface Analysis {
  /** 0-100, calibrated: does not depend on the sensitivity mode. With an adapted profile applied, the adapted score (`calibration.modelScore` is the model's). */
  score: number;
  /** Calibrated probability that the text is AI-generated (the adapted one when `score` is). */
  probability: number;
  verdictKey: VerdictKey;
  verdict: string;
  /** True when the verdict at this sensitivity says the text is, or contains, AI writing (ai, likely_ai, mixed). */
  ai: boolean;
  language: TextLang;
  sensitivity: Sensitivity;
  docType: string;
  docTypeLabel: string;
  totalDimensions: number;
  activeDimensions: number;
  dimensions: DimensionResult[];
  textAnnotations: TextAnnotation[];
  bullets: Bullet[];
  /** Human and AI passages covering the text from its first word to its last. */
  segments: TextSegment[];
  /** Words in AI passages over all words, 0 to 1. */
  aiShare: number;
  /** How often this mode flagged human texts of this kind: what the verdict's error is (the profile's where it applies). */
  measuredError: MeasuredErrorView;
  /** The calibration profile asked for and whether its threshold decided this text; null when none was asked for. */
  calibration: ProfileUse | null;
  /**
   * Every sentence with words, scored 0-100 (empty exactly when `segments` is). The word-weighted
   * mean (by `words`) of a passage's sentence scores is within 1 point of the passage's score (rounding).
   */
  sentenceScores: SentenceScore[];
  /** Words by the project's one word definition (see countWords). */
  words: number;
  /** Processing time in milliseconds (decimal). */
  msCost: number;
}

export interface AnalyzeOptions {
  sensitivity?: Sensitivity;
  labelLang?: LabelLang;
  /** countWords(text), when the caller already has it (single mode counts for the quota first): not counted twice. */
  words?: number;
  /** Decide with this calibration profile's thresholds where it applies (src/detector/decide/profile.ts). */
  profile?: CalibrationProfile | null;
  /** The running model's version a profile must match (default: the detector's own, src/model-version.ts). */
  modelVersion?: string;
}

/** What the service, the batch mode and the CLI depend on. */
export interface Detector {
  /** The one word definition: runs of Unicode letters/digits, inner apostrophes and hyphens kept. */
  countWords(text: string): number;
  analyze(text: string, options?: AnalyzeOptions): Analysis;
  /**
   * A text's score for a calibration profile (its logit, probability, scored words, document type,
   * the modes at which it reads `mixed`, its model language) and, never to be kept, the evidence an
   * adaptation reads (its distinct n-gram indexes and style measures); null under MIN_PROFILE_WORDS words.
   */
  profileSample(text: string): ProfileInput | null;
  /**
   * The model language of a first reading of `text` (its opening characters' stop words, no scoring:
   * score/engine.ts firstLanguage): what a calibration checks its languages with before it scores
   * and charges (issue 44). Almost always the language profileSample() gives; optional (a stand-in
   * detector may leave it out, and the checks then come after scoring).
   */
  language?(text: string): ModelLang;
  /**
   * What the model says of texts that a calibration profile's figures need (decide/profile.ts ModelFacts):
   * the calibrated probability of a logit (each bar on the score scale), whether a length's cell gives
   * AI verdicts, and the global bar (what a text a profile does not cover is held to). Optional: a
   * stand-in detector (tests) may leave it out, and a profile is then made without them.
   */
  readonly facts?: ModelFacts;
  /**
   * Decodes the reference writers `facts` carries (model/reference.bin) in steps, awaiting `tick()`
   * between them (default: the next turn of the event loop); once per process. A profile build decodes
   * them at once otherwise: a server awaits this first, so the decode never holds other requests.
   */
  loadReference?(tick?: () => Promise<void>): Promise<void>;
}
