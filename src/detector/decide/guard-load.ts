/**
 * The guard applied to a language of a profile (issue 43 items 3 and 4): each mode's calibration-only bar
 * and, where the language is adapted, its adapted bar raised by ./guard.ts guardBar on the reference
 * writers the language covers; the profile's own texts and AI examples recounted at the raised bars; an
 * adapted mode that then catches fewer of the examples than calibration-only falls back to it
 * (`fallback: 'fewer_caught'`), and a language where no mode catches more is not adapted
 * (`examples_look_human`). One function for both times a guard is made:
 * - as a profile is made (learn/profile.ts), the adapted bars read the reference texts' cross-fitted
 *   adapted logits (the fit saw them as negatives, so each is scored by a fold that never saw it);
 * - as an older profile is loaded (format 1 or 2, made without the guard: guardOnLoad), the stored fit
 *   applied to the reference texts (adaptedLogit): those texts were never in its fit, so that is honest.
 *   We chose to guard older profiles on load rather than have them re-made: the operator keeps a
 *   profile that works, its promise to other writers holds from the next detection, and it says
 *   `guard.made: 'on_load'`.
 */
import { MODE_FPR, round6, SENSITIVITIES, type ModelLang, type Sensitivity } from '../../contract';
import { type Adaptation, type AdaptationMode, adaptedLogit, adaptedProbability } from './adaptation';
import { type GuardedBar, type GuardPopulation, guardBar, type OtherWriters } from './guard';
import type { GuardNote } from './other-writers';
import {
  type CalibrationProfile,
  covers,
  flaggedAt,
  middleWords,
  type ModelFacts,
  notAdapted,
  PROFILE_FORMAT,
  type ProfileLanguage,
  type ProfileModeThreshold,
  type ProfileSample,
  type RuleReading,
  ruleTexts,
  thresholdScore,
} from './profile';
import type { ReferenceLanguage } from './reference';
import { barFigures, flags, justAbove, ruleThreshold } from './threshold-rule';

/**
 * The least share of the AI examples an adapted language must catch beyond calibration-only, at some
 * mode, once its bars are guarded; under it at every mode the language is not adapted:
 * `examples_look_human` when some mode gained that much before the guard (what the examples set apart is
 * written by reference writers too), else `no_gain` (the model already catches them about as well:
 * argumentative essays' AI examples beside native students' essays, 85-95% caught by the model alone,
 * gained 0-2 points). 5 points: a gain this small is within the sampling noise of a catch rate on the 50-100 examples a
 * profile is given (the 95% interval of a rate near 10% on 80 examples is about +-7 points), while
 * the adaptations the eval keeps gain 8-12 points at balanced (docs/calibration.md). Measured on the
 * generated diaries (test/engine/guard-profile.test.ts): examples in a voice a whole reference
 * population writes keep 2 of 80 (2.5 points) once guarded; with a tenth of one population in that
 * voice, 7 of 80 (8.75 points) at balanced.
 */
export const MIN_GUARDED_GAIN = 0.05;

/** The reference texts a language covers (document type and length), as samples, with their population. */
export interface CoveredReference {
  populations: ReferenceLanguage['populations'];
  /** The covered texts (adaptedLogit set when the language is adapted). */
  samples: ProfileSample[];
  population: number[];
}

/**
 * The reference texts of `ref` the language covers; `adapted` (one per text of `ref.texts`, in order):
 * their adapted logits, for an adapted language.
 */
export function coveredReference(
  ref: ReferenceLanguage,
  coverage: Pick<ProfileLanguage, 'docTypes' | 'words'>,
  adapted?: ArrayLike<number> | null,
): CoveredReference {
  const samples: ProfileSample[] = [];
  const population: number[] = [];
  ref.texts.forEach((t, i) => {
    if (!covers(coverage, t.docType, t.words)) return;
    const { logit, probability, words, docType, mixed } = t;
    samples.push({ logit, probability, words, docType, ...(mixed ? { mixed } : {}), ...(adapted ? { adaptedLogit: adapted[i] } : {}) });
    population.push(t.population);
  });
  return { populations: ref.populations, samples, population };
}

/** Never covers anything: how the model alone reads a text (held to the global bar on its own score). */
const NOWHERE: RuleReading['coverage'] = { docTypes: [], words: { min: 0, max: 0 } };

/** The covered reference texts by population at `mode`, each as a detection with the profile decides it (read as `reading`). */
export function populationsAt(
  ref: CoveredReference,
  lang: ModelLang,
  mode: Sensitivity,
  facts: ModelFacts,
  reading: RuleReading,
): GuardPopulation[] {
  const texts = ruleTexts(ref.samples, lang, mode, facts, reading);
  // The model alone: the global bar on the model's score (mixed flagged too), as a detection without a profile decides.
  const alone = ruleTexts(ref.samples, lang, mode, facts, { coverage: NOWHERE });
  const out: GuardPopulation[] = ref.populations.map((p) => ({ id: p.id, label: p.label, texts: [], modelFlagged: 0 }));
  ref.population.forEach((p, i) => {
    (out[p].texts as (typeof texts)[number][]).push(texts[i]);
    if (flags(alone[i], Number.NEGATIVE_INFINITY)) out[p].modelFlagged++;
  });
  return out;
}

/** The bar a detection applies at a mode without a bar of its own (`too_few_texts`): the stricter of the global one and just above the highest text. */
function noBarAt(l: Pick<ProfileLanguage, 'samples'>, lang: ModelLang, mode: Sensitivity, facts: ModelFacts): number {
  const global = facts.globalLogitAt?.(lang, mode) ?? Number.NEGATIVE_INFINITY;
  return l.samples.length ? Math.max(global, justAbove(l.samples[l.samples.length - 1].logit)) : global;
}

/** A language's bars guarded, with the figures each mode states. */
interface GuardedLanguage {
  modes: Record<Sensitivity, ProfileModeThreshold>;
  /** The calibration-only guard of each mode (its bar, its figures). */
  calibration: Record<Sensitivity, GuardedBar>;
}

/** The calibration-only bars guarded; the profile's own texts recounted at a raised bar. */
function guardCalibration(l: ProfileLanguage, ref: CoveredReference, lang: ModelLang, facts: ModelFacts): GuardedLanguage {
  const modes = {} as Record<Sensitivity, ProfileModeThreshold>;
  const calibration = {} as Record<Sensitivity, GuardedBar>;
  const coverage = { docTypes: l.docTypes, words: l.words };
  const { probabilityAt } = facts;
  for (const mode of SENSITIVITIES) {
    const m = l.modes[mode];
    const pops = populationsAt(ref, lang, mode, facts, { coverage });
    if (m.thresholdLogit === null) {
      // No bar of its own: the figures of the bar a detection applies, which the profile cannot move.
      calibration[mode] = guardBar(pops, noBarAt(l, lang, mode, facts), mode, 'calibration', false);
      modes[mode] = m;
      continue;
    }
    const g = guardBar(pops, m.thresholdLogit, mode, 'calibration');
    calibration[mode] = g;
    if (!g.otherWriters.raised) {
      modes[mode] = m;
      continue;
    }
    const raised = barFigures(ruleTexts(l.samples, lang, mode, facts, { coverage }), g.bar);
    const score = probabilityAt ? { thresholdScore: thresholdScore(g.bar, (z) => probabilityAt(lang, z, middleWords(l.words))) } : {};
    modes[mode] = { ...raised, ...score };
  }
  return { modes, calibration };
}

/** An adapted mode's bar: the rule on the human texts' adapted logits, guarded, and what it catches; null bar: falls back. */
function guardAdaptedMode(
  l: ProfileLanguage,
  a: Adaptation,
  ref: CoveredReference,
  lang: ModelLang,
  mode: Sensitivity,
  facts: ModelFacts,
  modelBar: number | null,
): { mode: AdaptationMode; guard: GuardedBar | null } {
  const coverage = { docTypes: l.docTypes, words: l.words };
  const adapted: RuleReading = { coverage, adapted: { modelBar } };
  const human = ruleTexts(l.samples, lang, mode, facts, adapted);
  const rule = ruleThreshold(human, MODE_FPR[mode]);
  const ai = l.aiSamples ?? [];
  const modelCaught = flaggedAt(ai, lang, mode, facts, { coverage }, modelBar);
  const n = Math.max(1, a.aiTexts);
  const counts = (caught: number) => ({ caught, catchRate: round6(caught / n), modelCaught, modelCatchRate: round6(modelCaught / n) });
  if (rule.thresholdLogit === null) {
    return { mode: { ...rule, thresholdScore: null, ...counts(0) }, guard: null };
  }
  const g = guardBar(populationsAt(ref, lang, mode, facts, adapted), rule.thresholdLogit, mode, 'adapted');
  const m = g.otherWriters.raised ? barFigures(human, g.bar) : rule;
  const caught = flaggedAt(ai, lang, mode, facts, adapted, g.bar);
  const stated: AdaptationMode = { ...m, thresholdScore: thresholdScore(m.thresholdLogit, adaptedProbability), ...counts(caught) };
  // Fewer of the examples caught than calibration-only: this mode decides calibration-only (issue 43 item 4).
  if (caught < modelCaught) return { mode: { ...stated, thresholdLogit: null, thresholdScore: null, fallback: 'fewer_caught' }, guard: g };
  return { mode: stated, guard: g };
}

/** A mode's stated figures with the other writers of the bar a covered detection applies. */
const withOthers = (m: ProfileModeThreshold, otherWriters: OtherWriters): ProfileModeThreshold => ({ ...m, otherWriters });

/**
 * A language of a profile guarded on `ref` (the reference writers of its language): the guarded
 * calibration-only bars; where it is adapted (`refAdapted`: the reference texts' adapted logits, one
 * per text of `ref.texts`), the guarded adapted bars, each mode falling back where it catches fewer of the
 * examples than calibration-only, and the language not adapted (`examples_look_human`) where no mode
 * catches more. Each mode states `otherWriters` of the bar a covered detection applies there.
 */
export function guardLanguage(
  l: ProfileLanguage,
  ref: ReferenceLanguage,
  lang: ModelLang,
  facts: ModelFacts,
  refAdapted: ArrayLike<number> | null,
  made: GuardNote['made'],
): ProfileLanguage {
  const coverage = { docTypes: l.docTypes, words: l.words };
  const covered = coveredReference(ref, coverage, l.adaptation ? refAdapted : null);
  const base = guardCalibration(l, covered, lang, facts);
  const guard: GuardNote = {
    references: covered.samples.length,
    populations: base.calibration.balanced.otherWriters.populations,
    made,
  };
  const calibrationOnly = (): ProfileLanguage => {
    const modes = {} as Record<Sensitivity, ProfileModeThreshold>;
    for (const mode of SENSITIVITIES) modes[mode] = withOthers(base.modes[mode], base.calibration[mode].otherWriters);
    return { ...l, modes, guard };
  };
  const a = l.adaptation;
  if (!a || !refAdapted) return calibrationOnly();
  const adaptedModes = {} as Record<Sensitivity, AdaptationMode>;
  const modes = {} as Record<Sensitivity, ProfileModeThreshold>;
  for (const mode of SENSITIVITIES) {
    const { mode: am, guard: g } = guardAdaptedMode(l, a, covered, lang, mode, facts, base.modes[mode].thresholdLogit);
    adaptedModes[mode] = am;
    const decidesAdapted = am.thresholdLogit !== null && g !== null;
    modes[mode] = withOthers(base.modes[mode], decidesAdapted ? g.otherWriters : base.calibration[mode].otherWriters);
  }
  // No mode catches MIN_GUARDED_GAIN more of the examples than calibration-only once guarded: not adapted. The guard
  // undid it (`examples_look_human`) where some mode gained that much unguarded; else it gained too little (`no_gain`).
  const best = (of: Record<Sensitivity, AdaptationMode>) =>
    Math.max(...SENSITIVITIES.map((m) => (of[m].thresholdLogit === null ? 0 : of[m].caught - of[m].modelCaught)));
  const least = MIN_GUARDED_GAIN * a.aiTexts;
  if (best(adaptedModes) < least) {
    const reason = best(a.modes) >= least ? 'examples_look_human' : 'no_gain';
    const { samples, aiSamples } = withoutAdaptedLogits(l);
    return {
      ...calibrationOnly(),
      samples,
      aiSamples,
      adaptation: null,
      notAdapted: notAdapted(reason, a.aiTexts, a.auroc),
    };
  }
  return { ...l, modes, adaptation: { ...a, modes: adaptedModes }, guard };
}

/** The samples of a language that is no longer adapted: without the adapted logits (a calibration-only language keeps none). */
function withoutAdaptedLogits(l: ProfileLanguage): Pick<ProfileLanguage, 'samples' | 'aiSamples'> {
  const strip = (s: ProfileSample): ProfileSample => {
    const { adaptedLogit: _, ...rest } = s;
    return rest;
  };
  return { samples: l.samples.map(strip), ...(l.aiSamples ? { aiSamples: l.aiSamples.map(strip) } : {}) };
}

/** Guarded profiles by their languages object (the store's cache keeps one parsed profile; findProfile spreads it with its id). */
const guardedOnLoad = new WeakMap<object, CalibrationProfile>();

/**
 * An older profile (format 1 or 2, made without the guard) guarded on load with the reference set of
 * the detector that applies it (`facts.reference`), each language marked `guard.made: 'on_load'`; an
 * adapted language's stored fit is applied to the reference texts. A profile of the current format,
 * without a reference set, or made for another model (stale: the global bars decide) is returned as it
 * is. Pure; cached per profile (by its languages object), so a profile the store's cache keeps is
 * guarded once.
 */
export function guardOnLoad(profile: CalibrationProfile, facts: ModelFacts): CalibrationProfile {
  // The format first: reading `facts.reference` may decode the shipped set.
  if (profile.format >= PROFILE_FORMAT) return profile;
  const set = facts.reference;
  if (!set || set.modelVersion !== profile.modelVersion) return profile;
  const cached = guardedOnLoad.get(profile.languages);
  if (cached) return cached.id === profile.id ? cached : { ...cached, id: profile.id };
  const languages: CalibrationProfile['languages'] = {};
  for (const [lang, l] of Object.entries(profile.languages) as [ModelLang, ProfileLanguage][]) {
    const ref = set.languages[lang];
    if (!ref || l.guard) {
      languages[lang] = l;
      continue;
    }
    // Only the texts the language covers are read (the guard reads no other): a quarter of the set for essays.
    const fit = l.adaptation?.fit;
    const refAdapted = fit
      ? ref.texts.map((t) => (covers(l, t.docType, t.words) ? adaptedLogit(fit, t.logit, t.evidence) : Number.NaN))
      : null;
    languages[lang] = guardLanguage(l, ref, lang, facts, refAdapted, 'on_load');
  }
  const guarded = { ...profile, languages };
  guardedOnLoad.set(profile.languages, guarded);
  return guarded;
}
