/**
 * Calibration profiles (issues 34 and 38): the scores the model gave one population's known-human
 * texts, per language (never a text), the thresholds they imply for each mode, the error measured on
 * them, and, where the operator also gave AI examples of the language, an adaptation learned from both
 * (./adaptation.ts). A detection that names a profile decides with its thresholds (and its adapted
 * score) where the profile covers the text (language, document type, length) and with the stricter of
 * the profile's and the global threshold on the model's own score elsewhere.
 *
 * THE SEAM (agreed before the work was split; change it only in one commit that updates every caller):
 * - `CalibrationProfile` is the one format: what `bun run calibrate --out` writes, what the store keeps
 *   (as JSON), what `detect --calibration FILE` reads and what the API returns (less `samples`,
 *   `aiSamples` and the adaptation's `fit`).
 * - Making one is src/detector/learn/profile.ts (buildProfile, profileSteps: the threshold rule of
 *   ./threshold-rule.ts and the adaptation's fit); applying one is `applyProfile()` here. Both are pure:
 *   no I/O, no store, no text.
 * - The model's `modelVersion` is passed in by the caller (src/model-version.ts), never read here.
 * - Callers (the API, the store and the CLI) use exactly these:
 *     detector.profileSample(text): ProfileInput | null   (null: under 20 words; the evidence an
 *         adaptation reads rides along and is dropped once the profile is made)
 *     buildProfile(human, meta, ai = []) / profileSteps(...) (src/detector/learn/profile.ts)
 *         throws a CodedError (codes and statuses in PROFILE_ERROR_STATUS) `calibration_too_small`
 *         (422, params { language, count, min }) when a language with human texts has fewer than
 *         MIN_PROFILE_TEXTS usable ones, `calibration_empty` (422, params { min, minWords }) with none
 *     makeProfile(detector, texts, meta, aiTexts?) (src/detector/index.ts): both steps in one call
 *     detector.analyze(text, { sensitivity, labelLang, profile?: CalibrationProfile })
 *         -> Analysis with `calibration: ProfileUse | null` and, when applied, a `measuredError`
 *            from the profile's own texts (`source: 'calibration'`); when adapted, `score` is the
 *            adapted score and `calibration.modelScore` the model's
 *     publicProfile(profile): the profile as the API shows it
 */
import { CodedError, MIN_WORDS, MODE_FPR, MODEL_LANGS, type ModelLang, SENSITIVITIES, type Sensitivity } from '../../contract';
import { binomialUpperBound } from '../score/bounds';
import { LENGTH_BUCKETS, lengthBucket } from '../score/calibration';
import { DOC_TYPES, type DocType } from '../score/doctype';
import type { TextForm } from '../score/form';
import {
  ADAPTATION_STYLE,
  type Adaptation,
  type AdaptationEvidence,
  adaptedLogit,
  adaptedProbability,
  type AdaptationMode,
  NOT_ADAPTED_REASONS,
  type NotAdapted,
} from './adaptation';
import { EXAMPLES_BELOW_HUMAN_AUROC, type ExamplesCheck, type FormFinding } from './examples';
import type { GuardNote } from './other-writers';
import { checkFallback, checkGuarded } from './guard-parse';
import { isCount, isObject, isShare, SLACK } from './json-checks';
import type { ReferenceSet } from './reference';
import {
  allowedFlags,
  flags,
  justAbove,
  type ProfileModeThreshold,
  type ProfileSample,
  type RuleText,
  ruleThreshold,
} from './threshold-rule';

export type { ProfileModeThreshold, ProfileSample } from './threshold-rule';

/**
 * The format a profile is written in; a reader takes it and the formats in READABLE_FORMATS, and refuses any other.
 * Format 3 (issue 43): each language's bars guarded on reference writers (`guard`, each mode's
 * `otherWriters`), an adapted mode that falls back to calibration-only (`fallback`), the check of the AI
 * examples (`examples`) and the reason `examples_look_human`.
 */
export const PROFILE_FORMAT = 3;
/**
 * Format 1 (issue 34): no adaptation, no duplicates count; read as a calibration-only profile. Formats 1
 * and 2 were made without the guard: they are read as they are (no `guard` note) and guarded on load
 * (./guard-load.ts guardOnLoad), with the reference set of the detector that applies them.
 */
export const READABLE_FORMATS: readonly number[] = [1, 2, 3];

/** One language of a profile. */
export interface ProfileLanguage {
  /** Usable distinct human texts (MIN_PROFILE_WORDS+ words) the thresholds were set on. */
  texts: number;
  /** Document types with enough texts to be covered; a text of another type gets `applied: false`. */
  docTypes: DocType[];
  /** Covered length range of scored words (`max` null: no upper bound); outside it, `applied: false`. */
  words: { min: number; max: number | null };
  /** Per mode, the bar on the model's own score (the calibration-only rule) and what it flags. */
  modes: Record<Sensitivity, ProfileModeThreshold>;
  /** What the AI examples taught (./adaptation.ts), or null: see `notAdapted`. */
  adaptation: Adaptation | null;
  /** Why the language was not adapted (null when it was). */
  notAdapted: NotAdapted | null;
  /** The human texts' scores (no text), sorted by logit: kept so thresholds can be recomputed under a new rule. */
  samples: ProfileSample[];
  /** The AI examples' scores (no text), when the language was given any. */
  aiSamples?: ProfileSample[];
  /**
   * How its bars were guarded on reference writers (./guard.ts); absent: made without a reference set
   * (a format-1 or 2 profile, guarded on load: ./guard-load.ts; or offline, without one).
   */
  guard?: GuardNote;
  /** The check of the AI examples against the human texts (./examples.ts); absent with fewer than MIN_CHECKED_EXAMPLES examples. */
  examples?: ExamplesCheck;
}

/** A calibration profile, as written to a file and kept in the store. */
export interface CalibrationProfile {
  format: number;
  /** The store's id (absent in a file made offline). */
  id?: string;
  name: string;
  /** The model that scored the samples; under another model the profile is stale. */
  modelVersion: string;
  createdAt: string;
  languages: Partial<Record<ModelLang, ProfileLanguage>>;
  /** Texts left out as duplicates or near-duplicates (learn/distinct.ts) of another text of the set: they are not evidence twice. */
  duplicates?: Duplicates;
}

/**
 * The texts a profile's set left out as duplicates, per side, and of those the labelling conflicts: a
 * text given both as human and as AI (issue 45 item 6; absent in a profile made before).
 */
export interface Duplicates {
  human: number;
  ai: number;
  conflicts?: number;
}

/**
 * Why a profile's threshold was not used for a text: the model changed since the profile was made,
 * or the profile does not cover the text's language, document type or length, or has too few texts
 * for this mode to keep its promise (`too_few_texts`: that mode's `thresholdLogit` is null).
 */
export const PROFILE_REASONS = [
  'model_changed',
  'language_not_covered',
  'doc_type_not_covered',
  'length_not_covered',
  'too_few_texts',
] as const;
export type ProfileReason = (typeof PROFILE_REASONS)[number];

/** What a detection with a profile tells the caller (`calibration` in every answer made with one). */
export interface ProfileUse {
  id: string | null;
  name: string;
  applied: boolean;
  reason: ProfileReason | null;
  /** The verdict was decided on the profile's adapted score (the profile applied and its language is adapted). */
  adapted: boolean;
  /** When adapted: the adapted score (the answer's `score`) and the model's own, 0-100. */
  adaptedScore?: number;
  modelScore?: number;
  /**
   * When adapted and the text reads as several passages: `model`, the passages (and the AI share) are
   * the model's own reading, which can differ from the adapted whole-text score (issue 45 item 2);
   * `note` says so in the label language.
   */
  passages?: 'model';
  note?: string;
}

/** A language needs this many usable texts before a profile is made for it. */
export const MIN_PROFILE_TEXTS = 50;
/** A text needs this many words (countWords) to be used: the words a detection needs. */
export const MIN_PROFILE_WORDS = MIN_WORDS;
/** A document type, or a length bucket, needs this many of a language's texts to be covered by its profile... */
export const MIN_COVERED_TEXTS = 20;
/**
 * ...and this share of them: the classifier puts a few texts of any population in other types (a
 * learner essay read as a post), and 20 such texts out of 1,650 must not make a profile of learner essays
 * cover posts (measured: docs/calibration.md, "Coverage").
 */
export const MIN_COVERED_SHARE = 0.05;

/** The errors making a profile can end with (every client-facing code of a profile, defined once). */
export const PROFILE_ERROR_STATUS = { calibration_too_small: 422, calibration_empty: 422, calibration_invalid: 400 } as const;
export type ProfileErrorCode = keyof typeof PROFILE_ERROR_STATUS;

/** A scored text with the model language it was scored in: what a profile is made of. */
export type LangProfileSample = ProfileSample & { lang: ModelLang };

/** What detector.profileSample() answers: the sample, and (never kept) the evidence an adaptation reads and the text's form (../score/form.ts). */
export type ProfileInput = LangProfileSample & { evidence?: AdaptationEvidence; form?: TextForm };

/** What the model says of a text's length that the threshold rule needs (the detector's model; absent in offline tests). */
export interface ModelFacts {
  /** The model's calibrated probability of a `words`-word text of `lang` at `logit` (Detector.probabilityAt): each mode's `thresholdScore`. */
  probabilityAt?: (lang: ModelLang, logit: number, words: number) => number;
  /** Whether the model gives AI verdicts at `mode` to texts of this length (its cell is conclusive; default: yes). */
  conclusiveAt?: (lang: ModelLang, words: number, mode: Sensitivity) => boolean;
  /** The model's own threshold logit for the language and mode (what a text outside a profile's coverage is also held to; default: none). */
  globalLogitAt?: (lang: ModelLang, mode: Sensitivity) => number;
  /**
   * Reference human writers of many populations (./reference.ts; issue 43): extra negatives of the
   * adaptation's fit and the populations every bar is guarded on. The detector's facts carry the set
   * shipped with its model (so every caller that spreads `detector.facts` into a ProfileMeta passes
   * it); the eval passes its own. Absent or null: no guard, no reference negatives.
   */
  reference?: ReferenceSet | null;
}

/** What a profile is made with besides the scores. */
export interface ProfileMeta extends ModelFacts {
  name: string;
  /** The running model's version (src/model-version.ts), which scored the samples. */
  modelVersion: string;
  /** ISO 8601 instant. */
  createdAt: string;
  id?: string;
  /** Duplicates the caller left out (learn/distinct.ts). */
  duplicates?: Duplicates;
  /** What the reference writers weigh in the fit, as a share of the site's human texts (learn/adaptation.ts REFERENCE_WEIGHT; the eval tries others). */
  referenceWeight?: number;
}

/** Scores at or above even odds (50) are the only ones a profile may call AI (docs/calibration.md, "Even odds"). */
export const EVEN_ODDS_SCORE = 50;

/** The middle (geometric) of a covered length range: where a threshold's score is stated. */
export function middleWords(words: ProfileLanguage['words']): number {
  return words.max === null ? words.min * 1.4 : Math.sqrt(Math.max(words.min, 1) * Math.max(words.max, 1));
}

/** A threshold logit on the score scale (never under even odds), or null with none. */
export function thresholdScore(thresholdLogit: number | null, probability: (logit: number) => number): number | null {
  return thresholdLogit === null ? null : Math.max(EVEN_ODDS_SCORE, Math.round(100 * probability(thresholdLogit)));
}

/** Whether a covered length range holds a text of `words` scored words. */
const coversWords = (range: ProfileLanguage['words'], words: number) => words >= range.min && (range.max === null || words <= range.max);

/** Whether a profile's language covers a text of this document type and length (else the stricter bar decides, unadapted). */
export function covers(language: Pick<ProfileLanguage, 'docTypes' | 'words'>, docType: DocType, words: number): boolean {
  return language.docTypes.includes(docType) && coversWords(language.words, words);
}

/** How the rule reads a language's texts: on the model's logit (calibration-only), or on the adapted one given the model's bar at the mode. */
export interface RuleReading {
  coverage: Pick<ProfileLanguage, 'docTypes' | 'words'>;
  /** Read on the cross-fitted adapted logits; a text the profile does not cover is decided on the model's score with `modelBar`. */
  adapted?: { modelBar: number | null };
}

/**
 * Each text at `mode` as a detection with the profile would decide it (issue 38 item 8: a profile's
 * counts are what `detect --calibration` flags of the same texts): mixed at the mode, flagged whatever the
 * bar; under even odds (the model's calibration, or the adapted logit's 0) or in a cell too short for the
 * mode, never; a text outside the coverage held to the stricter of the bar and the global one, on the
 * model's score.
 */
export function ruleTexts(
  samples: readonly ProfileSample[],
  lang: ModelLang,
  mode: Sensitivity,
  facts: ModelFacts,
  reading: RuleReading,
): RuleText[] {
  const global = facts.globalLogitAt?.(lang, mode) ?? Number.NEGATIVE_INFINITY;
  return samples.map((s) => {
    const always = s.mixed?.includes(mode) ?? false;
    const conclusive = facts.conclusiveAt?.(lang, s.words, mode) ?? true;
    const covered = covers(reading.coverage, s.docType, s.words);
    const model: RuleText = {
      logit: s.logit,
      always,
      never: s.probability < 0.5 || !conclusive,
      floor: covered ? Number.NEGATIVE_INFINITY : global,
    };
    if (!reading.adapted) return model;
    const logit = s.adaptedLogit!;
    if (covered) return { logit, always, never: adaptedProbability(logit) < 0.5 || !conclusive, floor: Number.NEGATIVE_INFINITY };
    // Not covered: decided unadapted, whatever the adapted bar.
    const { modelBar } = reading.adapted;
    const flagged = modelBar === null ? always : flags(model, modelBar);
    return { logit, always: flagged, never: !flagged, floor: Number.NEGATIVE_INFINITY };
  });
}

/** How many of `samples` a mode's bar flags, as a detection would decide (threshold-rule.ts flags), read as `reading` says; none without a bar. */
export function flaggedAt(
  samples: readonly ProfileSample[],
  lang: ModelLang,
  mode: Sensitivity,
  facts: ModelFacts,
  reading: RuleReading,
  bar: number | null,
): number {
  if (bar === null) return 0;
  return ruleTexts(samples, lang, mode, facts, reading).filter((t) => flags(t, bar)).length;
}

/** The document types with enough texts (MIN_COVERED_TEXTS and MIN_COVERED_SHARE), in DOC_TYPES order. */
function coveredDocTypes(samples: readonly ProfileSample[]): DocType[] {
  const counts = new Map<DocType, number>();
  for (const s of samples) counts.set(s.docType, (counts.get(s.docType) ?? 0) + 1);
  return DOC_TYPES.filter((t) => enough(counts.get(t) ?? 0, samples.length));
}

/** Whether `count` of a language's `total` texts are enough to cover a type or a length. */
const enough = (count: number, total: number) => count >= MIN_COVERED_TEXTS && count >= MIN_COVERED_SHARE * total;

/**
 * The covered length range: the longest run of adjacent length buckets (LENGTH_BUCKETS) each with
 * enough texts (MIN_COVERED_TEXTS and MIN_COVERED_SHARE) (the run with more texts on a tie); `max` null when it reaches the
 * open last bucket. Null when no bucket has enough texts.
 */
function coveredWords(samples: readonly ProfileSample[]): { min: number; max: number | null } | null {
  const counts = LENGTH_BUCKETS.map(() => 0);
  for (const s of samples) counts[lengthBucket(s.words)]++;
  let best: [number, number, number] | null = null; // [first, last, texts]
  const ok = (b: number) => enough(counts[b], samples.length);
  for (let b = 0; b < counts.length; b++) {
    if (!ok(b) || (b > 0 && ok(b - 1))) continue;
    let e = b;
    let texts = counts[b];
    while (e + 1 < counts.length && ok(e + 1)) texts += counts[++e];
    if (!best || e - b > best[1] - best[0] || (e - b === best[1] - best[0] && texts > best[2])) best = [b, e, texts];
  }
  if (!best) return null;
  const [first, last] = best;
  return { min: LENGTH_BUCKETS[first], max: last + 1 < LENGTH_BUCKETS.length ? LENGTH_BUCKETS[last + 1] - 1 : null };
}

/** The part of a language that depends only on its human texts: coverage and the calibration-only bars. */
export function calibrationOnlyLanguage(
  samples: readonly ProfileSample[],
  lang: ModelLang,
  facts: ModelFacts = {},
): Pick<ProfileLanguage, 'texts' | 'docTypes' | 'words' | 'modes' | 'samples'> {
  const sorted = [...samples].sort((a, b) => a.logit - b.logit);
  // No bucket with enough texts (a small profile spread over lengths): it covers no length, so it applies nowhere.
  const words = coveredWords(sorted) ?? { min: 0, max: 0 };
  const docTypes = coveredDocTypes(sorted);
  const middle = middleWords(words);
  const modes = {} as Record<Sensitivity, ProfileModeThreshold>;
  for (const mode of SENSITIVITIES) {
    const m = ruleThreshold(ruleTexts(sorted, lang, mode, facts, { coverage: { docTypes, words } }), MODE_FPR[mode]);
    const { probabilityAt } = facts;
    modes[mode] = probabilityAt ? { ...m, thresholdScore: thresholdScore(m.thresholdLogit, (z) => probabilityAt(lang, z, middle)) } : m;
  }
  // Exact until the profile is made: a guard that raises a bar recounts on them; the maker keeps them on the grid (keptSample).
  return { texts: sorted.length, docTypes, words, modes, samples: sorted.map(sampleOf) };
}

/**
 * The precision a profile keeps of a text's scores (issue 44 item 6): at 17 digits a logit named the
 * text it came from (anyone holding the file found which texts were used, 100 of 100, and recovered a
 * form letter's secret word from 1,000 candidates down to 2). A sample keeps only what the threshold
 * rule reads of it, no finer: the logit (and an adapted one) in steps of KEPT_LOGIT_STEP; of the
 * probability, its side of even odds (0 or 0.5; 1 for a certain one); of its length, its length
 * bucket (LENGTH_BUCKETS: the cell and the coverage the rule reads); its type and mixed modes as they
 * are. docs/calibration.md, "Privacy", says what an attacker holding the file still learns (measured:
 * test/cli/profile-privacy.test.ts).
 *
 * The calibration-only bars and the figures each mode states, the guard's raised bars included, are set
 * on the exact scores before they are rounded (learn/profile.ts rounds a language last), so they are what
 * a detection decides (issue 38 item 8); the adapted bars are set on adapted logits already on the grid
 * (keptAdaptedLogit), which is what recomputing them from the file gives. The logit is rounded UP (the bar of a mode with too few texts, just above the highest
 * sample, stays above every text), the adapted logit away from zero (its sign is its side of even odds).
 */
/** Logit steps kept (a twentieth of a logit: ~1 point of score around even odds). */
export const KEPT_LOGIT_STEP = 0.25;
/** Probability steps kept: the side of even odds (the rule never flags a text under it), nothing finer. */
export const KEPT_PROBABILITY_STEP = 0.5;

/** Decimals of the grid's steps: a kept value is written with no more (0.15, not 0.15000000000000002). */
const GRID_DECIMALS = 2;
const onGrid = (steps: number, step: number) => Number((steps * step).toFixed(GRID_DECIMALS)) + 0;
/** `v` rounded up to the grid of `step` (a value within 1e-9 of a step above it is that step). */
const gridUp = (v: number, step: number) => onGrid(Math.ceil(v / step - 1e-9), step);
/** `v` rounded away from zero to the grid of `step` (its sign kept: a negative adapted logit is under even odds). */
const gridAway = (v: number, step: number) => (v < 0 ? -gridUp(-v, step) : gridUp(v, step));
/** `v` rounded down to the grid of `step`. */
const gridDown = (v: number, step: number) => onGrid(Math.floor(v / step + 1e-9), step);
/** The lowest length of a text's length bucket (its own length under the first bucket's bound, which no covered range reaches). */
const keptWords = (words: number) => Math.min(words, LENGTH_BUCKETS[lengthBucket(words)]);

/** A sample's fields (no more: the evidence an input carries is dropped), exact, in a fixed key order. */
export function sampleOf(s: ProfileSample): ProfileSample {
  const { logit, probability, words, docType, mixed, adaptedLogit } = s;
  return {
    logit,
    probability,
    words,
    docType,
    ...(mixed?.length ? { mixed } : {}),
    ...(adaptedLogit === undefined ? {} : { adaptedLogit }),
  };
}

/** An adapted logit as a profile keeps it: away from zero on the grid (the adapted bars are set on these). */
export const keptAdaptedLogit = (v: number) => gridAway(v, KEPT_LOGIT_STEP);

/** What a profile keeps of a sample: its numbers on the grid above, and its kind, in a fixed key order (idempotent). */
export function keptSample(s: ProfileSample): ProfileSample {
  const { logit, probability, words, adaptedLogit } = s;
  return sampleOf({
    ...s,
    logit: gridUp(logit, KEPT_LOGIT_STEP),
    probability: gridDown(probability, KEPT_PROBABILITY_STEP),
    words: keptWords(words),
    ...(adaptedLogit === undefined ? {} : { adaptedLogit: keptAdaptedLogit(adaptedLogit) }),
  });
}

/** A profile as the API shows it: every language less its samples, and its adaptation less the fit. */
export type PublicLanguage = Omit<ProfileLanguage, 'samples' | 'aiSamples' | 'adaptation'> & {
  adaptation: Omit<Adaptation, 'fit'> | null;
};
export type PublicProfile = Omit<CalibrationProfile, 'languages'> & { languages: Partial<Record<ModelLang, PublicLanguage>> };

/** The profile less its samples and fits (what the API returns). */
export function publicProfile(profile: CalibrationProfile): PublicProfile {
  const languages: PublicProfile['languages'] = {};
  for (const lang of MODEL_LANGS) {
    const l = profile.languages[lang];
    if (!l) continue;
    const { samples: _, aiSamples: __, adaptation, ...rest } = l;
    languages[lang] = { ...rest, adaptation: adaptation ? withoutFit(adaptation) : null };
  }
  return { ...profile, languages };
}

function withoutFit(a: Adaptation): Omit<Adaptation, 'fit'> {
  const { fit: _, ...rest } = a;
  return rest;
}

/** Whether a profile was made with another model than the running one: its thresholds no longer hold. */
export function isStale(profile: Pick<CalibrationProfile, 'modelVersion'>, runningModelVersion: string): boolean {
  return profile.modelVersion !== runningModelVersion;
}

/** The text a profile is applied to. */
export interface ProfileTarget {
  lang: ModelLang;
  docType: DocType;
  /** Scored words (EngineResult.scoredWords). */
  words: number;
  mode: Sensitivity;
  /** The model's own threshold logit for the language and mode. */
  globalLogit: number;
  /** The model's logit for the text (EngineResult.lexicalLogit): what an adaptation starts from. */
  modelLogit?: number;
  /** The text's n-grams and style (evidenceOf), for an adapted profile; absent or null: the profile is applied unadapted. */
  evidence?: AdaptationEvidence | null;
}

/** What a profile does to one text at one mode. */
export interface ProfileApplication {
  use: ProfileUse;
  /** The threshold logit the verdict uses: the profile's where it applies (on the adapted logit when `adapted`), else the stricter of the two (or the global one) on the model's. */
  thresholdLogit: number;
  /** The profile's mode figures when it applies (its measured error: cross-fitted when adapted), else null: the model's measured error stands. */
  measured: (ProfileModeThreshold & { words: ProfileLanguage['words'] }) | null;
  /** The adapted logit and probability the verdict is decided on, or null: the model's score decides. */
  adapted: { logit: number; probability: number } | null;
}

/**
 * The threshold a profile gives one text (pure): the profile's own where it covers the text's
 * language, document type and length with a threshold for the mode (on the adapted score where the
 * language is adapted and the text's evidence was read); the stricter (higher) of the profile's
 * calibration-only bar and the global one, on the model's score, where it does not cover the type or
 * length (a profile of essays never lowers the bar for tweets, nor adapts them); with too few texts
 * for the mode (`too_few_texts`), the stricter of the global one and just above the profile's highest
 * text (the texts cannot set a lower bar, but they do show a global bar their own human writing
 * reaches); the global one when the profile is stale (`model_changed`) or has no texts of the language.
 */
export function applyProfile(profile: CalibrationProfile, target: ProfileTarget, runningModelVersion: string): ProfileApplication {
  const use = (applied: boolean, reason: ProfileReason | null, adapted = false): ProfileUse => ({
    id: profile.id ?? null,
    name: profile.name,
    applied,
    reason,
    adapted,
  });
  const global = (reason: ProfileReason): ProfileApplication => ({
    use: use(false, reason),
    thresholdLogit: target.globalLogit,
    measured: null,
    adapted: null,
  });
  if (isStale(profile, runningModelVersion)) return global('model_changed');
  const lang = profile.languages[target.lang];
  if (!lang) return global('language_not_covered');
  const m = lang.modes[target.mode];
  if (m.thresholdLogit === null) {
    // Too few texts to set this mode's bar, but enough to see when the global bar flags the
    // population's own human texts: the stricter of the global bar and just above the highest of them.
    const highest = lang.samples.length ? justAbove(lang.samples[lang.samples.length - 1].logit) : target.globalLogit;
    return { use: use(false, 'too_few_texts'), thresholdLogit: Math.max(target.globalLogit, highest), measured: null, adapted: null };
  }
  const stricter = (reason: ProfileReason): ProfileApplication => ({
    use: use(false, reason),
    thresholdLogit: Math.max(m.thresholdLogit!, target.globalLogit),
    measured: null,
    adapted: null,
  });
  if (!lang.docTypes.includes(target.docType)) return stricter('doc_type_not_covered');
  if (!coversWords(lang.words, target.words)) return stricter('length_not_covered');
  const a = lang.adaptation;
  const am = a?.modes[target.mode];
  if (a && am && am.thresholdLogit !== null && target.evidence && target.modelLogit !== undefined) {
    const logit = adaptedLogit(a.fit, target.modelLogit, target.evidence);
    return {
      use: use(true, null, true),
      thresholdLogit: am.thresholdLogit,
      measured: { ...am, words: lang.words },
      adapted: { logit, probability: adaptedProbability(logit) },
    };
  }
  return { use: use(true, null), thresholdLogit: m.thresholdLogit, measured: { ...m, words: lang.words }, adapted: null };
}

/** Whether any language of a profile is adapted: detections naming it emit the evidence an adaptation reads. */
export function isAdapted(profile: CalibrationProfile | null | undefined): boolean {
  return !!profile && MODEL_LANGS.some((l) => profile.languages[l]?.adaptation);
}

/** A profile read back (a file, a stored row) that is not one: `calibration_invalid`, with what is wrong. */
function invalid(why: string): CodedError {
  return new CodedError('calibration_invalid', PROFILE_ERROR_STATUS.calibration_invalid, `not a calibration profile: ${why}`, {
    reason: why,
  });
}

const isDocType = (v: unknown): v is DocType => (DOC_TYPES as readonly unknown[]).includes(v);
const isLogit = (v: unknown): v is number => typeof v === 'number' && Math.abs(v) <= MAX_PROFILE_LOGIT;
const isWeight = (v: unknown): v is number => typeof v === 'number' && Math.abs(v) <= MAX_FIT_WEIGHT;

/*
 * Bounds on a stored profile's numbers (issue 44 item 5: finite but absurd numbers were applied: weights,
 * bias or logit weight of 1e308 answered `score: null` or 100 for every text, a bar of -1e300 kept its old
 * counts). Each is far above what a real fit or score reaches, measured on profiles made from dev data
 * with `calibrate --out` (outfox essays + argugpt, StackExchange + alpaca, BBC news + autextification;
 * docs/faults.md, "Issue 44"): |logit| <= 21 (model and cross-fitted), |n-gram weight| <= 1.9,
 * |style weight| <= 0.7, |bias| <= 1.3, |logit weight| <= 1.3, |style mean| <= 22.
 */
/** Largest |logit| a sample, a cross-fitted logit or a bar may state (a logit of 1,000 is odds of e^1000: no score means it). */
export const MAX_PROFILE_LOGIT = 1_000;
/** Largest |weight| of an n-gram or a style measure, and |bias| and |logit weight|, of a fit (50x the largest measured). */
export const MAX_FIT_WEIGHT = 100;
/** Largest |mean| of a style measure (rates and averages per sentence: 22 at most measured). */
export const MAX_STYLE_MEAN = 1e6;
/**
 * Most weighted n-grams a fit keeps: MAX_ADAPTATION_GRAMS (learn/adaptation.ts, which decide/ may not
 * import; test/cli/profile-bounds.test.ts checks they agree). A stored fit of 3,000,000 was applied.
 */
export const MAX_FIT_GRAMS = 60_000;
/**
 * How far below the rule's lowest possible bar a stated bar may sit, and how far a kept sample may sit
 * below a bar that flagged it: kept logits are on a grid of KEPT_LOGIT_STEP (issue 44 item 6; rounded up,
 * adapted ones away from zero), and the bars were set on the exact scores. A bar moved further down flags
 * texts its stated counts do not.
 */
const BAR_SLACK = KEPT_LOGIT_STEP + 0.05;

/** One text at one mode as the checks read it: the logit the bar is on, flagged whatever the bar, and whether a bar could flag it at all. */
interface BarText {
  logit: number;
  /** Certainly flagged whatever the bar (mixed at the mode). */
  always: boolean;
  /** At most these are flagged at a bar they reach (never: under even odds; whether its cell is conclusive needs the model's facts, so assumed). */
  eligible: boolean;
  /** Decided on the model's bar whatever the adapted one (an adapted profile's text outside its coverage): flagged or not, at any adapted bar. */
  fixed?: boolean;
}

/**
 * A language's texts at `mode` for the bar checks, without the model's facts (parseProfile has none):
 * on the model's logits, or on the cross-fitted ones given the model's bar at the mode (`modelBar`).
 */
function barTexts(
  samples: readonly ProfileSample[],
  mode: Sensitivity,
  coverage: Pick<ProfileLanguage, 'docTypes' | 'words'>,
  adapted?: { modelBar: number | null },
): BarText[] {
  return samples.map((s) => {
    const always = s.mixed?.includes(mode) ?? false;
    if (!adapted) return { logit: s.logit, always, eligible: s.probability >= 0.5 };
    const logit = s.adaptedLogit ?? 0;
    if (covers(coverage, s.docType, s.words)) return { logit, always, eligible: adaptedProbability(logit) >= 0.5 };
    const { modelBar } = adapted;
    return { logit, always, eligible: modelBar !== null && s.probability >= 0.5 && s.logit >= modelBar - BAR_SLACK, fixed: true };
  });
}

/**
 * A stated bar and its count against the texts (issue 44 item 5): the rule sets the bar just above the
 * (k+1)-th highest logit (a mixed text counting as the highest), and the guard only raises it, so a bar
 * under that is not the rule's; and the bar cannot flag more texts than reach it.
 */
function checkBar(m: ProfileModeThreshold, at: string, rule: readonly BarText[], k: number): void {
  const bar = m.thresholdLogit;
  if (bar === null) return;
  if (Math.abs(bar) > MAX_PROFILE_LOGIT) throw invalid(`${at}.thresholdLogit is beyond ±${MAX_PROFILE_LOGIT}`);
  const ranked = rule.map((t) => (t.always ? Number.POSITIVE_INFINITY : t.logit)).sort((a, b) => b - a);
  const cut = ranked[k];
  const lowest = justAbove(Number.isFinite(cut) ? cut : rule.reduce((most, t) => Math.max(most, t.logit), Number.NEGATIVE_INFINITY));
  if (bar < lowest - BAR_SLACK) throw invalid(`${at}.thresholdLogit is below the bar the rule sets on its ${rule.length} texts`);
  let reach = 0;
  for (const t of rule) if (t.always || (t.eligible && (t.fixed || t.logit >= bar - BAR_SLACK))) reach++;
  if (m.flagged > reach) throw invalid(`${at}.flagged is ${m.flagged}, more than the ${reach} texts its bar can flag`);
}

/**
 * A mode's figures as stored, checked against each other and the texts they were set on: a profile
 * whose figures contradict each other (999 of 60 flagged with rate 0, a bound of 0, more flagged than
 * the rule allows) is not applied (issue 40 item 8).
 */
function checkMode(m: unknown, at: string, texts: number, mode: Sensitivity, rule: readonly BarText[], fellBack = false): void {
  if (
    !isObject(m) ||
    !(m.thresholdLogit === null || Number.isFinite(m.thresholdLogit)) ||
    !isCount(m.flagged) ||
    !isCount(m.texts) ||
    !isShare(m.rate) ||
    !isShare(m.upperBound) ||
    !(m.thresholdScore === undefined || m.thresholdScore === null || isCount(m.thresholdScore))
  ) {
    throw invalid(`${at} is not a mode threshold`);
  }
  if (m.texts !== texts) throw invalid(`${at}.texts is ${m.texts}, the language has ${texts}`);
  if (m.flagged > texts) throw invalid(`${at}.flagged is more than its texts`);
  if (Math.abs(m.rate - m.flagged / Math.max(1, texts)) > SLACK) throw invalid(`${at}.rate is not flagged / texts`);
  if (Math.abs(m.upperBound - binomialUpperBound(m.flagged, texts)) > SLACK)
    throw invalid(`${at}.upperBound is not the bound of flagged of texts`);
  const k = allowedFlags(texts, MODE_FPR[mode]);
  // A mode that fell back to calibration-only (./adaptation.ts `fallback`) has no bar of its own whatever its texts.
  if ((m.thresholdLogit === null) !== (k < 0 || fellBack))
    throw invalid(`${at}.thresholdLogit does not follow the rule for ${texts} texts`);
  // The rule flags at most k, unless more texts than that are mixed (flagged whatever the bar), and at least the mixed ones.
  const mixed = rule.filter((t) => t.always).length;
  if (m.flagged > Math.max(k, mixed)) throw invalid(`${at}.flagged is more than the rule allows for ${texts} texts`);
  if (m.flagged < mixed) throw invalid(`${at}.flagged is ${m.flagged}, fewer than the ${mixed} texts flagged whatever the bar`);
  if (rule.length === texts) checkBar(m as unknown as ProfileModeThreshold, at, rule, k);
}

function checkSamples(list: unknown, at: string, adapted: boolean): asserts list is ProfileSample[] {
  if (!Array.isArray(list)) throw invalid(`${at} is not a list`);
  for (const x of list) {
    if (
      !isObject(x) ||
      !isLogit(x.logit) ||
      !isShare(x.probability) ||
      !isCount(x.words) ||
      !isDocType(x.docType) ||
      !(x.mixed === undefined || (Array.isArray(x.mixed) && x.mixed.every((m) => (SENSITIVITIES as readonly unknown[]).includes(m)))) ||
      !(x.adaptedLogit === undefined || isLogit(x.adaptedLogit)) ||
      (adapted && x.adaptedLogit === undefined)
    ) {
      throw invalid(`${at} holds something other than scores (logits within ±${MAX_PROFILE_LOGIT})`);
    }
  }
}

/** The adaptation of a language as stored, checked (shapes, sizes, the fit's numbers). */
function checkAdaptation(
  a: unknown,
  at: string,
  samples: readonly ProfileSample[],
  aiTexts: number,
  language: Pick<ProfileLanguage, 'docTypes' | 'words' | 'modes'>,
): void {
  const texts = samples.length;
  if (!isObject(a) || !isCount(a.aiTexts) || !isCount(a.features) || !isObject(a.auroc) || !isObject(a.docTypes) || !isObject(a.modes)) {
    throw invalid(`${at} is not an adaptation`);
  }
  if (a.aiTexts !== aiTexts) throw invalid(`${at}.aiTexts is ${a.aiTexts}, the language keeps ${aiTexts} AI samples`);
  if (!isShare(a.auroc.adapted) || !isShare(a.auroc.model)) throw invalid(`${at}.auroc is not a pair of AUROCs`);
  if (!Object.entries(a.docTypes).every(([t, n]) => isDocType(t) && isCount(n))) throw invalid(`${at}.docTypes is not counts by type`);
  for (const mode of SENSITIVITIES) {
    const m = a.modes[mode];
    const fellBack = checkFallback(m, `${at}.modes.${mode}`, aiTexts);
    if (typeof fellBack === 'string') throw invalid(fellBack);
    const modelBar = language.modes[mode].thresholdLogit;
    checkMode(m, `${at}.modes.${mode}`, texts, mode, barTexts(samples, mode, language, { modelBar }), fellBack);
    const c = m as Record<string, unknown>;
    for (const [n, r] of [
      ['caught', 'catchRate'],
      ['modelCaught', 'modelCatchRate'],
    ] as const) {
      if (
        !isCount(c[n]) ||
        (c[n] as number) > aiTexts ||
        !isShare(c[r]) ||
        Math.abs((c[r] as number) - (c[n] as number) / Math.max(1, aiTexts)) > SLACK
      ) {
        throw invalid(`${at}.modes.${mode}.${n} does not count the AI examples`);
      }
    }
  }
  const fit = a.fit;
  if (!isObject(fit) || !Array.isArray(fit.grams) || !Array.isArray(fit.weights) || !isObject(fit.style))
    throw invalid(`${at}.fit is not a fit`);
  const { grams, weights, style } = fit;
  if (grams.length !== weights.length || grams.length !== a.features)
    throw invalid(`${at}.fit has ${grams.length} n-grams for ${a.features} features`);
  if (!grams.every((g, i) => Number.isInteger(g) && g >= 0 && g <= 0xffffffff && (i === 0 || g > (grams[i - 1] as number)))) {
    throw invalid(`${at}.fit.grams is not ascending indexes`);
  }
  if (grams.length > MAX_FIT_GRAMS) throw invalid(`${at}.fit has ${grams.length} n-grams, more than the ${MAX_FIT_GRAMS} a fit keeps`);
  if (!weights.every(isWeight) || !isWeight(fit.logitWeight) || !isWeight(fit.bias))
    throw invalid(`${at}.fit holds a weight, bias or logit weight that is not a number within ±${MAX_FIT_WEIGHT}`);
  const n = ADAPTATION_STYLE.length;
  for (const key of ['mean', 'scale', 'weights'] as const) {
    const v = style[key];
    if (!Array.isArray(v) || v.length !== n || !v.every(Number.isFinite)) throw invalid(`${at}.fit.style.${key} is not ${n} numbers`);
  }
  if (!(style.weights as number[]).every(isWeight)) throw invalid(`${at}.fit.style.weights holds a weight beyond ±${MAX_FIT_WEIGHT}`);
  if (!(style.mean as number[]).every((v) => Math.abs(v) <= MAX_STYLE_MEAN))
    throw invalid(`${at}.fit.style.mean holds a mean beyond ±${MAX_STYLE_MEAN}`);
  if (!(style.scale as number[]).every((v) => v > 0)) throw invalid(`${at}.fit.style.scale holds a scale that is not positive`);
}

function checkNotAdapted(v: unknown, at: string): void {
  if (v === null) return;
  if (
    !isObject(v) ||
    !(NOT_ADAPTED_REASONS as readonly unknown[]).includes(v.reason) ||
    !isCount(v.aiTexts) ||
    !isCount(v.minAiTexts) ||
    !(v.auroc === null || (isObject(v.auroc) && isShare(v.auroc.adapted) && isShare(v.auroc.model)))
  ) {
    throw invalid(`${at} is not a reason with its counts`);
  }
}

/**
 * Checks a parsed JSON value is a profile of a readable format (what `calibrate --out` writes and the
 * store keeps), that its figures agree with each other and with its samples, and returns it typed (a
 * format-1 profile read as calibration-only); throws `calibration_invalid` naming the first thing wrong.
 */
export function parseProfile(value: unknown): CalibrationProfile {
  if (!isObject(value)) throw invalid('not a JSON object');
  if (!READABLE_FORMATS.includes(value.format as number))
    throw invalid(`format ${JSON.stringify(value.format)}, expected ${PROFILE_FORMAT}`);
  for (const field of ['name', 'modelVersion', 'createdAt'] as const) {
    if (typeof value[field] !== 'string') throw invalid(`${field} is not a string`);
  }
  if (value.id !== undefined && typeof value.id !== 'string') throw invalid('id is not a string');
  if (
    value.duplicates !== undefined &&
    !(
      isObject(value.duplicates) &&
      isCount(value.duplicates.human) &&
      isCount(value.duplicates.ai) &&
      (value.duplicates.conflicts === undefined || isCount(value.duplicates.conflicts))
    )
  ) {
    throw invalid('duplicates is not a count of human and AI texts');
  }
  if (!isObject(value.languages)) throw invalid('languages is not an object');
  const langs = Object.keys(value.languages);
  if (!langs.length) throw invalid('no language');
  for (const lang of langs) {
    if (!(MODEL_LANGS as readonly string[]).includes(lang)) throw invalid(`unknown language "${lang}"`);
    const l = value.languages[lang];
    const at = `languages.${lang}`;
    if (!isObject(l) || !isCount(l.texts)) throw invalid(`${at}.texts is not a count`);
    if (!Array.isArray(l.docTypes) || !l.docTypes.every(isDocType)) throw invalid(`${at}.docTypes is not a list of document types`);
    if (!isObject(l.words) || !isCount(l.words.min) || !(l.words.max === null || isCount(l.words.max)))
      throw invalid(`${at}.words is not a range`);
    if (l.texts < MIN_PROFILE_TEXTS) throw invalid(`${at}.texts is ${l.texts}, under the ${MIN_PROFILE_TEXTS} a language needs`);
    const adapted = isObject(l.adaptation);
    const samples: unknown = l.samples;
    checkSamples(samples, `${at}.samples`, adapted);
    if (samples.length !== l.texts) throw invalid(`${at}.texts is ${l.texts}, the language keeps ${samples.length} samples`);
    if (!samples.every((s, i) => i === 0 || s.logit >= samples[i - 1].logit)) throw invalid(`${at}.samples are not sorted by logit`);
    if (!isObject(l.modes)) throw invalid(`${at}.modes is not an object`);
    const coverage = { docTypes: l.docTypes as DocType[], words: l.words as ProfileLanguage['words'] };
    for (const mode of SENSITIVITIES) checkMode(l.modes[mode], `${at}.modes.${mode}`, l.texts, mode, barTexts(samples, mode, coverage));
    if (l.aiSamples !== undefined) checkSamples(l.aiSamples, `${at}.aiSamples`, adapted);
    if (adapted) {
      const language = { ...coverage, modes: l.modes as ProfileLanguage['modes'] };
      checkAdaptation(l.adaptation, `${at}.adaptation`, samples, (l.aiSamples as unknown[] | undefined)?.length ?? -1, language);
    } else if (l.adaptation !== undefined && l.adaptation !== null) throw invalid(`${at}.adaptation is not an adaptation`);
    checkNotAdapted(l.notAdapted ?? null, `${at}.notAdapted`);
    // The AI examples a language was given: the samples it keeps, or (too few to adapt: none kept) what notAdapted counts.
    const given = (l.aiSamples as unknown[] | undefined)?.length ?? (isObject(l.notAdapted) ? (l.notAdapted.aiTexts as number) : 0);
    const unguarded = checkGuarded(l, at, value.format as number, given);
    if (unguarded) throw invalid(unguarded);
    // Format 2 says either what a language learned or why it learned nothing (format 1 says neither: withDefaults).
    const explained = l.notAdapted !== undefined && l.notAdapted !== null;
    if (value.format !== 1 && adapted === explained) throw invalid(`${at} must have exactly one of adaptation and notAdapted`);
  }
  return withDefaults(value as unknown as CalibrationProfile);
}

/** A profile of format 1 (or a summary stored before issue 38) read as calibration-only: no adaptation, the reason `no_ai_texts`. */
export function withDefaults<P extends { languages: Partial<Record<ModelLang, object>> }>(profile: P): P {
  const languages: Record<string, object> = {};
  for (const [lang, l] of Object.entries(profile.languages)) {
    const given = l as { adaptation?: unknown; notAdapted?: unknown };
    languages[lang] = {
      ...l,
      adaptation: given.adaptation ?? null,
      notAdapted: given.adaptation ? null : (given.notAdapted ?? notAdapted('no_ai_texts', 0, null)),
    };
  }
  return { ...profile, languages };
}

/**
 * Something a person making a profile should know: a mode it sets no bar for, a language it did not
 * adapt, AI examples the model ranks below the human texts (`examples_rank_below_human`: check the
 * labels) or that differ from them mainly in a surface form (`examples_differ_in_form`: which form, its
 * share on each side; `word` for a shared opening), an adapted mode that fell back to calibration-only.
 */
export type ProfileWarning =
  | { code: 'mode_not_covered'; language: ModelLang; mode: Sensitivity; texts: number; needed: number }
  | { code: 'not_adapted'; language: ModelLang; reason: Exclude<NotAdapted['reason'], 'no_ai_texts'>; aiTexts: number; needed: number }
  | { code: 'labelling_conflict'; count: number }
  | { code: 'examples_rank_below_human'; language: ModelLang; auroc: number; aiTexts: number }
  | ({ code: 'examples_differ_in_form'; language: ModelLang } & FormFinding)
  | { code: 'mode_fell_back'; language: ModelLang; mode: Sensitivity; caught: number; modelCaught: number; aiTexts: number };

/** The fewest texts with which a mode's promise can set a bar (allowedFlags >= 0): 99 / 33 / 9. */
export function textsNeeded(mode: Sensitivity): number {
  let n = 1;
  while (allowedFlags(n, MODE_FPR[mode]) < 0) n++;
  return n;
}

/**
 * The warnings of a profile (issue 39 item 3): each mode of each language without a bar of its own
 * (`mode_not_covered`: detections there use the model's bar, `too_few_texts`), and each language given AI
 * examples but not adapted (`not_adapted`, with the reason). A profile made without AI examples is not
 * warned about them: calibration-only is what was asked for. Texts given both as human and as AI
 * (issue 45 item 6): `labelling_conflict` with how many (each used as human only).
 */
export function profileWarnings(profile: {
  languages: Partial<
    Record<
      ModelLang,
      Pick<ProfileLanguage, 'texts' | 'modes' | 'notAdapted' | 'examples'> & {
        adaptation?: { aiTexts: number; modes: Record<Sensitivity, Pick<AdaptationMode, 'caught' | 'modelCaught' | 'fallback'>> } | null;
      }
    >
  >;
  duplicates?: Duplicates;
}): ProfileWarning[] {
  const out: ProfileWarning[] = [];
  const conflicts = profile.duplicates?.conflicts ?? 0;
  if (conflicts > 0) out.push({ code: 'labelling_conflict', count: conflicts });
  for (const language of MODEL_LANGS) {
    const l = profile.languages[language];
    if (!l) continue;
    for (const mode of SENSITIVITIES) {
      if (l.modes[mode].thresholdLogit === null)
        out.push({ code: 'mode_not_covered', language, mode, texts: l.texts, needed: textsNeeded(mode) });
    }
    const why = l.notAdapted;
    if (why && why.reason !== 'no_ai_texts')
      out.push({ code: 'not_adapted', language, reason: why.reason, aiTexts: why.aiTexts, needed: why.minAiTexts });
    const a = l.adaptation;
    for (const mode of a ? SENSITIVITIES : []) {
      const am = a!.modes[mode];
      if (am.fallback)
        out.push({ code: 'mode_fell_back', language, mode, caught: am.caught, modelCaught: am.modelCaught, aiTexts: a!.aiTexts });
    }
    const ex = l.examples;
    if (ex && ex.modelAuroc < EXAMPLES_BELOW_HUMAN_AUROC)
      out.push({ code: 'examples_rank_below_human', language, auroc: ex.modelAuroc, aiTexts: ex.aiTexts });
    for (const f of ex?.forms ?? []) out.push({ code: 'examples_differ_in_form', language, ...f });
  }
  return out;
}

/** A NotAdapted record. */
export function notAdapted(reason: NotAdapted['reason'], aiTexts: number, auroc: NotAdapted['auroc']): NotAdapted {
  return { reason, aiTexts, minAiTexts: MIN_AI_TEXTS, auroc };
}

/** A language needs this many distinct AI examples (20+ words) to be adapted. */
export const MIN_AI_TEXTS = 50;
