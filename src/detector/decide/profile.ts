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
 *         samples: profileSample()'s non-null answers (an array), or the same grouped by language;
 *         throws a CodedError (codes and statuses in PROFILE_ERROR_STATUS) `calibration_too_small`
 *         (422, params { language, count, min }) when a language with texts has fewer than
 *         MIN_PROFILE_TEXTS usable ones, `calibration_empty` (422, params { min, minWords }) with none
 *     makeProfile(detector, texts, meta) (src/detector/index.ts): both steps in one call, for tests and
 *         scripts; the CLI and the API run the same two steps in their own loops (tallies, time slices)
 *     detector.analyze(text, { sensitivity, labelLang, profile?: CalibrationProfile })
 *         -> Analysis with `calibration: ProfileUse | null` and, when applied, a `measuredError`
 *            from the profile's own texts (MeasuredErrorView gains `upperBound`, a share 0-1, for
 *            both sources, and `source: 'model' | 'calibration'`)
 *     publicProfile(profile): the profile less `samples` (what the API returns)
 */
import { CodedError, MIN_WORDS, MODE_FPR, MODEL_LANGS, type ModelLang, SENSITIVITIES, type Sensitivity } from '../../contract';
import { binomialUpperBound } from '../score/bounds';
import { LENGTH_BUCKETS, lengthBucket } from '../score/calibration';
import { DOC_TYPES, type DocType } from '../score/doctype';

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
  /**
   * The threshold on the 0-100 score scale for a text in the middle of the covered length (the score
   * depends on length: exact at that length, close elsewhere), never below even odds (50); null with
   * no threshold. Absent when the profile was made without the model's calibration (offline tests).
   */
  thresholdScore?: number | null;
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

/** A scored known-human text with the model language it was scored in: what profileSample() answers. */
export type LangProfileSample = ProfileSample & { lang: ModelLang };

/** What a profile is made with besides the scores. */
export interface ProfileMeta {
  name: string;
  /** The running model's version (src/model-version.ts), which scored the samples. */
  modelVersion: string;
  /** ISO 8601 instant. */
  createdAt: string;
  id?: string;
  /** The model's calibrated probability of a `words`-word text of `lang` at `logit` (Detector.probabilityAt): gives each mode its `thresholdScore`. */
  probabilityAt?: (lang: ModelLang, logit: number, words: number) => number;
}

/** Scores at or above even odds (50) are the only ones a profile may call AI (docs/calibration.md, "Even odds"). */
const EVEN_ODDS_SCORE = 50;

/** The middle (geometric) of a covered length range: where a threshold's score is stated. */
function middleWords(words: ProfileLanguage['words']): number {
  return words.max === null ? words.min * 1.4 : Math.sqrt(Math.max(words.min, 1) * Math.max(words.max, 1));
}

/** Each mode's threshold on the score scale, at the middle of the covered length. */
function withThresholdScores(
  language: ProfileLanguage,
  lang: ModelLang,
  probabilityAt: NonNullable<ProfileMeta['probabilityAt']>,
): ProfileLanguage {
  const words = middleWords(language.words);
  const modes = {} as Record<Sensitivity, ProfileModeThreshold>;
  for (const mode of SENSITIVITIES) {
    const m = language.modes[mode];
    const thresholdScore =
      m.thresholdLogit === null ? null : Math.max(EVEN_ODDS_SCORE, Math.round(100 * probabilityAt(lang, m.thresholdLogit, words)));
    modes[mode] = { ...m, thresholdScore };
  }
  return { ...language, modes };
}

/**
 * How many of `n` calibration texts a mode with promise `fpr` may leave at or above its threshold:
 * the largest k with (k + 1) / (n + 1) <= fpr, or -1 when even k = 0 cannot keep it (n + 1 < 1 / fpr).
 *
 * THE RULE (docs/calibration.md): the threshold sits just above the (k+1)-th highest logit of the
 * n human texts, so exactly k of them are flagged. For a new human text of the same population, the
 * chance it lands above the threshold is (k + 1) / (n + 1) on average over the calibration sets
 * (the split-conformal guarantee; exact for any continuous score), i.e. at most the mode's promise,
 * and with 95% confidence at most binomialUpperBound(k, n) (the Beta(k + 1, n - k) quantile that the
 * exact Clopper-Pearson bound of k of n equals), the `upperBound` every mode states.
 */
export function allowedFlags(n: number, fpr: number): number {
  return Math.floor(fpr * (n + 1) + 1e-9) - 1;
}

/** Just above a logit: the threshold leaves this text (and any equal to it) unflagged. */
const justAbove = (logit: number) => logit + Math.max(1e-9, Math.abs(logit) * 1e-12);

/** One mode's threshold over logits sorted ascending, by the rule of allowedFlags(). */
export function modeThreshold(sortedLogits: readonly number[], fpr: number): ProfileModeThreshold {
  const n = sortedLogits.length;
  const k = allowedFlags(n, fpr);
  // Too few texts for this promise: no threshold, and the bound of the best the texts could do (none flagged).
  if (k < 0 || n === 0) return { thresholdLogit: null, flagged: 0, texts: n, rate: 0, upperBound: binomialUpperBound(0, n) };
  const thresholdLogit = justAbove(sortedLogits[n - k - 1]);
  const flagged = n - lowerBound(sortedLogits, thresholdLogit);
  return { thresholdLogit, flagged, texts: n, rate: flagged / n, upperBound: binomialUpperBound(flagged, n) };
}

/** Index of the first value >= x in an ascending array. */
function lowerBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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

/** One language of a profile from its samples (at least one). */
export function profileLanguage(samples: readonly ProfileSample[]): ProfileLanguage {
  const sorted = [...samples].sort((a, b) => a.logit - b.logit);
  const logits = sorted.map((s) => s.logit);
  const modes = {} as Record<Sensitivity, ProfileModeThreshold>;
  for (const mode of SENSITIVITIES) modes[mode] = modeThreshold(logits, MODE_FPR[mode]);
  return {
    texts: sorted.length,
    docTypes: coveredDocTypes(sorted),
    // No bucket with enough texts (a small profile spread over lengths): it covers no length, so it applies nowhere.
    words: coveredWords(sorted) ?? { min: 0, max: 0 },
    modes,
    samples: sorted.map(({ logit, probability, words, docType }) => ({ logit, probability, words, docType })),
  };
}

/** The samples grouped by language. */
function byLanguage(
  samples: readonly LangProfileSample[] | Partial<Record<ModelLang, readonly ProfileSample[]>>,
): Partial<Record<ModelLang, readonly ProfileSample[]>> {
  if (!Array.isArray(samples)) return samples as Partial<Record<ModelLang, readonly ProfileSample[]>>;
  const out: Partial<Record<ModelLang, ProfileSample[]>> = {};
  for (const s of samples as readonly LangProfileSample[]) (out[s.lang] ??= []).push(s);
  return out;
}

/**
 * A profile from scored known-human texts (profileSample()'s non-null answers, or the same grouped
 * by language). Pure. Throws `calibration_empty` with no sample, `calibration_too_small` when a
 * language has some but fewer than MIN_PROFILE_TEXTS (the first such language in MODEL_LANGS order).
 */
export function buildProfile(
  samples: readonly LangProfileSample[] | Partial<Record<ModelLang, readonly ProfileSample[]>>,
  meta: ProfileMeta,
): CalibrationProfile {
  const grouped = byLanguage(samples);
  const present = MODEL_LANGS.filter((l) => (grouped[l]?.length ?? 0) > 0);
  if (!present.length) {
    throw new CodedError('calibration_empty', PROFILE_ERROR_STATUS.calibration_empty, `no usable text (${MIN_PROFILE_WORDS}+ words)`, {
      min: MIN_PROFILE_TEXTS,
      minWords: MIN_PROFILE_WORDS,
    });
  }
  for (const lang of present) {
    const count = grouped[lang]!.length;
    if (count < MIN_PROFILE_TEXTS) {
      throw new CodedError(
        'calibration_too_small',
        PROFILE_ERROR_STATUS.calibration_too_small,
        `${lang}: ${count} usable texts, at least ${MIN_PROFILE_TEXTS} needed`,
        { language: lang, count, min: MIN_PROFILE_TEXTS, minWords: MIN_PROFILE_WORDS },
      );
    }
  }
  const languages: CalibrationProfile['languages'] = {};
  for (const lang of present) {
    const language = profileLanguage(grouped[lang]!);
    languages[lang] = meta.probabilityAt ? withThresholdScores(language, lang, meta.probabilityAt) : language;
  }
  return {
    format: PROFILE_FORMAT,
    ...(meta.id === undefined ? {} : { id: meta.id }),
    name: meta.name,
    modelVersion: meta.modelVersion,
    createdAt: meta.createdAt,
    languages,
  };
}

/** A profile as the API shows it: every language less its `samples`. */
export type PublicProfile = Omit<CalibrationProfile, 'languages'> & {
  languages: Partial<Record<ModelLang, Omit<ProfileLanguage, 'samples'>>>;
};

/** The profile less its samples (what the API returns). */
export function publicProfile(profile: CalibrationProfile): PublicProfile {
  const languages: PublicProfile['languages'] = {};
  for (const lang of MODEL_LANGS) {
    const l = profile.languages[lang];
    if (!l) continue;
    const { samples: _, ...rest } = l;
    languages[lang] = rest;
  }
  return { ...profile, languages };
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
}

/** What a profile does to one text at one mode. */
export interface ProfileApplication {
  use: ProfileUse;
  /** The threshold logit the verdict uses: the profile's where it applies, else the stricter of the two (or the global one). */
  thresholdLogit: number;
  /** The profile's mode figures when it applies (its measured error), else null: the model's measured error stands. */
  measured: (ProfileModeThreshold & { words: ProfileLanguage['words'] }) | null;
}

/**
 * The threshold a profile gives one text (pure): the profile's own where it covers the text's
 * language, document type and length with a threshold for the mode; the stricter (higher) of the
 * profile's and the global one where it does not cover the type or length (a profile of essays
 * never lowers the bar for tweets); with too few texts for the mode (`too_few_texts`), the stricter
 * of the global one and just above the profile's highest text (the texts cannot set a lower bar,
 * but they do show a global bar their own human writing reaches); the global one when the profile is
 * stale (`model_changed`) or has no texts of the language.
 */
export function applyProfile(profile: CalibrationProfile, target: ProfileTarget, runningModelVersion: string): ProfileApplication {
  const use = (applied: boolean, reason: ProfileReason | null): ProfileUse => ({
    id: profile.id ?? null,
    name: profile.name,
    applied,
    reason,
  });
  const global = (reason: ProfileReason): ProfileApplication => ({
    use: use(false, reason),
    thresholdLogit: target.globalLogit,
    measured: null,
  });
  if (isStale(profile, runningModelVersion)) return global('model_changed');
  const lang = profile.languages[target.lang];
  if (!lang) return global('language_not_covered');
  const m = lang.modes[target.mode];
  if (m.thresholdLogit === null) {
    // Too few texts to set this mode's bar, but enough to see when the global bar flags the
    // population's own human texts: the stricter of the global bar and just above the highest of them.
    const highest = lang.samples.length ? justAbove(lang.samples[lang.samples.length - 1].logit) : target.globalLogit;
    return { use: use(false, 'too_few_texts'), thresholdLogit: Math.max(target.globalLogit, highest), measured: null };
  }
  const stricter = (reason: ProfileReason): ProfileApplication => ({
    use: use(false, reason),
    thresholdLogit: Math.max(m.thresholdLogit!, target.globalLogit),
    measured: null,
  });
  if (!lang.docTypes.includes(target.docType)) return stricter('doc_type_not_covered');
  if (target.words < lang.words.min || (lang.words.max !== null && target.words > lang.words.max)) return stricter('length_not_covered');
  return { use: use(true, null), thresholdLogit: m.thresholdLogit, measured: { ...m, words: lang.words } };
}

/** A profile read back (a file, a stored row) that is not one: `calibration_invalid`, with what is wrong. */
function invalid(why: string): CodedError {
  return new CodedError('calibration_invalid', PROFILE_ERROR_STATUS.calibration_invalid, `not a calibration profile: ${why}`, {
    reason: why,
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const isShare = (v: unknown): v is number => typeof v === 'number' && v >= 0 && v <= 1;

/**
 * Checks a parsed JSON value is a profile of PROFILE_FORMAT (what `calibrate --out` writes and the
 * store keeps) and returns it typed; throws `calibration_invalid` naming the first thing wrong.
 */
export function parseProfile(value: unknown): CalibrationProfile {
  if (!isObject(value)) throw invalid('not a JSON object');
  if (value.format !== PROFILE_FORMAT) throw invalid(`format ${JSON.stringify(value.format)}, expected ${PROFILE_FORMAT}`);
  for (const field of ['name', 'modelVersion', 'createdAt'] as const) {
    if (typeof value[field] !== 'string') throw invalid(`${field} is not a string`);
  }
  if (value.id !== undefined && typeof value.id !== 'string') throw invalid('id is not a string');
  if (!isObject(value.languages)) throw invalid('languages is not an object');
  const langs = Object.keys(value.languages);
  if (!langs.length) throw invalid('no language');
  for (const lang of langs) {
    if (!(MODEL_LANGS as readonly string[]).includes(lang)) throw invalid(`unknown language "${lang}"`);
    const l = value.languages[lang];
    const at = `languages.${lang}`;
    if (!isObject(l) || !isCount(l.texts)) throw invalid(`${at}.texts is not a count`);
    if (!Array.isArray(l.docTypes) || !l.docTypes.every((t) => (DOC_TYPES as readonly unknown[]).includes(t))) {
      throw invalid(`${at}.docTypes is not a list of document types`);
    }
    if (!isObject(l.words) || !isCount(l.words.min) || !(l.words.max === null || isCount(l.words.max)))
      throw invalid(`${at}.words is not a range`);
    if (!isObject(l.modes)) throw invalid(`${at}.modes is not an object`);
    for (const mode of SENSITIVITIES) {
      const m = l.modes[mode];
      if (
        !isObject(m) ||
        !(m.thresholdLogit === null || Number.isFinite(m.thresholdLogit)) ||
        !isCount(m.flagged) ||
        !isCount(m.texts) ||
        !isShare(m.rate) ||
        !isShare(m.upperBound) ||
        !(m.thresholdScore === undefined || m.thresholdScore === null || isCount(m.thresholdScore))
      ) {
        throw invalid(`${at}.modes.${mode} is not a mode threshold`);
      }
    }
    if (!Array.isArray(l.samples)) throw invalid(`${at}.samples is not a list`);
    for (const x of l.samples) {
      if (
        !isObject(x) ||
        !Number.isFinite(x.logit) ||
        !isShare(x.probability) ||
        !isCount(x.words) ||
        !(DOC_TYPES as readonly unknown[]).includes(x.docType)
      ) {
        throw invalid(`${at}.samples holds something other than scores`);
      }
    }
  }
  return value as unknown as CalibrationProfile;
}
