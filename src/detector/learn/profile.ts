/**
 * Making a calibration profile (issues 34 and 38): from an operator's scored human texts, and any AI
 * examples, per language, the calibration-only bars (../decide/threshold-rule.ts), and where the
 * language has MIN_AI_TEXTS examples, the adaptation (./adaptation.ts) with its bars set on the human
 * texts' cross-fitted adapted logits. Pure (no I/O, no store, no text); the format and its use are
 * ../decide/profile.ts. A generator, so that the API can serve other requests between slices of the fit.
 */
import { CodedError, MODE_FPR, MODEL_LANGS, type ModelLang, round6, SENSITIVITIES, type Sensitivity } from '../../contract';
import type { Adaptation, AdaptationMode } from '../decide/adaptation';
import { adaptedProbability } from '../decide/adaptation';
import { guardLanguage } from '../decide/guard-load';
import {
  type CalibrationProfile,
  calibrationOnlyLanguage,
  flaggedAt,
  keptAdaptedLogit,
  sampleOf,
  keptSample,
  type LangProfileSample,
  MIN_AI_TEXTS,
  MIN_PROFILE_TEXTS,
  MIN_PROFILE_WORDS,
  notAdapted,
  PROFILE_ERROR_STATUS,
  PROFILE_FORMAT,
  type ProfileInput,
  type ProfileLanguage,
  type ProfileMeta,
  type ProfileModeThreshold,
  type RuleReading,
  ruleTexts,
  thresholdScore,
} from '../decide/profile';
import { ruleThreshold } from '../decide/threshold-rule';
import { type AdaptationResult, adaptationSteps, type FitText, REFERENCE_WEIGHT, referenceFitTexts } from './adaptation';
import { checkExamples } from './examples';
import { runToEnd } from './lr';

/** The inputs grouped by language. */
function byLanguage<T extends LangProfileSample>(samples: readonly T[]): Partial<Record<ModelLang, T[]>> {
  const out: Partial<Record<ModelLang, T[]>> = {};
  for (const s of samples) (out[s.lang] ??= []).push(s);
  return out;
}

/** The evidence of an input, which an adaptation needs (detector.profileSample() gives it). */
function fitText(s: ProfileInput): FitText {
  if (!s.evidence) throw new Error('an AI example or a human text of an adapted language was scored without its evidence');
  return { logit: s.logit, evidence: s.evidence };
}

/** One language: the calibration-only part, then the adaptation where its AI examples allow one; each bar guarded where the meta has reference writers of the language. */
function* languageSteps(
  lang: ModelLang,
  human: readonly ProfileInput[],
  ai: readonly ProfileInput[],
  meta: ProfileMeta,
): Generator<void, ProfileLanguage> {
  const ref = meta.reference?.languages[lang] ?? null;
  const checked = checkExamples(human, ai);
  const made = yield* unguardedSteps(lang, human, ai, meta);
  const language = checked ? { ...made.language, examples: checked } : made.language;
  if (!ref) return kept(language);
  // The reference texts' adapted logits: cross-fitted, each from a fit that never saw its population (learn/adaptation.ts).
  return kept(guardLanguage(language, ref, lang, meta, language.adaptation ? made.result!.referenceLogits : null, 'with_profile'));
}

/** A language's samples as the profile keeps them (issue 44 item 6), once every bar and count is set on the exact ones. */
function kept(l: ProfileLanguage): ProfileLanguage {
  return { ...l, samples: l.samples.map(keptSample), ...(l.aiSamples ? { aiSamples: l.aiSamples.map(keptSample) } : {}) };
}

/** One language as made without a guard (today's rule): the calibration-only part, then the adaptation where the examples allow one and it gains. */
function* unguardedSteps(
  lang: ModelLang,
  human: readonly ProfileInput[],
  ai: readonly ProfileInput[],
  meta: ProfileMeta,
): Generator<void, { language: ProfileLanguage; result: AdaptationResult | null }> {
  const base = calibrationOnlyLanguage(human, lang, meta);
  const none = (why: ProfileLanguage['notAdapted'], result: AdaptationResult | null = null) => ({
    language: { ...base, adaptation: null, notAdapted: why },
    result,
  });
  if (ai.length < MIN_AI_TEXTS) return none(notAdapted(ai.length ? 'too_few_ai_texts' : 'no_ai_texts', ai.length, null));
  // Reference writers join the negatives (issue 43 item 2), weighing REFERENCE_WEIGHT of the site's human texts (or the eval's: ProfileMeta.referenceWeight).
  const ref = meta.reference?.languages[lang];
  const negatives = ref ? { texts: referenceFitTexts(ref), weight: meta.referenceWeight ?? REFERENCE_WEIGHT } : undefined;
  const result = yield* adaptationSteps(human.map(fitText), ai.map(fitText), negatives);
  if (!result.fit) return none(notAdapted('not_separable', ai.length, result.auroc));
  // The adapted logits on the grid a profile keeps them on (the bars below are set on those); the model's still exact.
  const humanSamples = human
    .map((s, i) => sampleOf({ ...s, adaptedLogit: keptAdaptedLogit(result.humanLogits[i]) }))
    .sort((a, b) => a.logit - b.logit);
  const aiSamples = ai.map((s, i) => sampleOf({ ...s, adaptedLogit: keptAdaptedLogit(result.aiLogits[i]) }));
  const modes = {} as Record<Sensitivity, AdaptationMode>;
  for (const mode of SENSITIVITIES) {
    const modelBar = base.modes[mode].thresholdLogit;
    const adapted: RuleReading = { coverage: base, adapted: { modelBar } };
    const m: ProfileModeThreshold = ruleThreshold(ruleTexts(humanSamples, lang, mode, meta, adapted), MODE_FPR[mode]);
    const caught = flaggedAt(aiSamples, lang, mode, meta, adapted, m.thresholdLogit);
    const modelCaught = flaggedAt(aiSamples, lang, mode, meta, { coverage: base }, modelBar);
    modes[mode] = {
      ...m,
      thresholdScore: thresholdScore(m.thresholdLogit, adaptedProbability),
      caught,
      catchRate: round6(caught / ai.length),
      modelCaught,
      modelCatchRate: round6(modelCaught / ai.length),
    };
  }
  // Applied only where it catches more of the examples, cross-validated, than the model's own score with
  // the calibration-only bars (summed over the modes): a model that already catches them all gains nothing.
  const gain = SENSITIVITIES.reduce((n, mode) => n + modes[mode].caught - modes[mode].modelCaught, 0);
  if (gain <= 0) return none(notAdapted('no_gain', ai.length, result.auroc));
  const docTypes: Adaptation['docTypes'] = {};
  for (const s of ai) docTypes[s.docType] = (docTypes[s.docType] ?? 0) + 1;
  const adaptation: Adaptation = {
    aiTexts: ai.length,
    docTypes,
    auroc: result.auroc,
    features: result.fit.grams.length,
    modes,
    fit: result.fit,
  };
  return { language: { ...base, samples: humanSamples, aiSamples, adaptation, notAdapted: null }, result };
}

/**
 * A profile from scored known-human texts and, optionally, AI examples (detector.profileSample()'s
 * non-null answers). Throws `calibration_empty` with no human sample, `calibration_too_small` when a
 * language has some but fewer than MIN_PROFILE_TEXTS (the first such language in MODEL_LANGS order).
 * AI examples of a language without human texts are not used (nothing to set a bar on).
 */
export function* profileSteps(
  human: readonly ProfileInput[],
  meta: ProfileMeta,
  ai: readonly ProfileInput[] = [],
): Generator<void, CalibrationProfile> {
  const grouped = byLanguage(human);
  const aiGrouped = byLanguage(ai);
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
  for (const lang of present) languages[lang] = yield* languageSteps(lang, grouped[lang]!, aiGrouped[lang] ?? [], meta);
  return {
    format: PROFILE_FORMAT,
    ...(meta.id === undefined ? {} : { id: meta.id }),
    name: meta.name,
    modelVersion: meta.modelVersion,
    createdAt: meta.createdAt,
    duplicates: meta.duplicates ?? { human: 0, ai: 0 },
    languages,
  };
}

/** profileSteps() in one call (the CLI, scripts and tests: nothing else to serve meanwhile). */
export function buildProfile(human: readonly ProfileInput[], meta: ProfileMeta, ai: readonly ProfileInput[] = []): CalibrationProfile {
  return runToEnd(profileSteps(human, meta, ai));
}
