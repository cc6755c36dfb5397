/**
 * The decision stage: from a score (src/detector/score) and a mode, the verdict (mixed passages,
 * the whole-text thresholds, the obfuscation and strong-passage guards) and the document type.
 * The explanations read this decision and never decide again.
 */
import { CodedError, isAiVerdict, isHumanVerdict, modelLang, SENSITIVITIES, type Sensitivity, type VerdictKey } from '../../contract';
import type { CellCalibration } from '../score/calibration';
import { detectDocType, type DocType, type DocTypeModel } from '../score/doctype';
import { changedLetters, type EngineResult } from '../score/engine';
import type { ModelFile } from '../score/model';
import type { Segment } from '../score/segments';
import { adaptedProbability, evidenceOf } from './adaptation';
import type { OtherWriters } from './guard';
import { measuredError, type MeasuredError } from './measured-error';
import { mixedPassage } from './mixed';
import { applyProfile, type CalibrationProfile, PROFILE_ERROR_STATUS, type ProfileUse } from './profile';
import { aiThreshold, aiThresholdAt, cellOf, conclusiveFrom, EVEN_ODDS, verdictFor } from './verdict';

/**
 * A passage the decoder reads as AI this strongly (segment score out of 100), over at least this many
 * words, is evidence no human-side verdict may stand on: the verdict is at most `inconclusive`.
 */
export const STRONG_PASSAGE_SCORE = 95;
export const STRONG_PASSAGE_WORDS = 100;

/** What the decision stage hands to the explanations. */
export interface Decision {
  mode: Sensitivity;
  verdictKey: VerdictKey;
  /**
   * The probability the verdict was decided on: the model's (EngineResult.probability), or a profile's
   * adapted one (then `adapted` holds it): what the answer's `score` shows.
   */
  probability: number;
  /** A profile's adaptation decided: its logit and probability (null: the model's score decided). */
  adapted: { logit: number; probability: number } | null;
  /** The AI passage that makes the text `mixed` (the most AI-like one), or null. */
  mixedPassage: Segment | null;
  /** The (language, length) calibration cell of the text. */
  cell: CellCalibration;
  /** The smallest probability called AI at this mode: the cell's, or the profile's bar (on the adapted score when adapted). */
  aiThreshold: number;
  /** The score leans AI but the cell cannot give an AI verdict at this mode (too short to keep the mode's promise). */
  short: boolean;
  /**
   * When `short`: whether another sensitivity could call a text of this language and length (false:
   * a limit of the model for the language at this length, whatever the mode), and the fewest words
   * from which this mode gives verdicts in the language (null: none).
   */
  shortBy: { otherMode: boolean; from: number | null } | null;
  /** The strongest long AI passage (STRONG_PASSAGE_*), or null: it keeps the verdict off the human side. */
  strongAiPassage: Segment | null;
  /** Letters were changed inside words: the reading cannot clear the text. */
  obfuscated: boolean;
  docType: DocType;
  /** How often this mode flagged human texts of this kind: the model's held-out tests, or the profile's texts where it applies. */
  measuredError: MeasuredError;
  /** The calibration profile the decision was asked to use, and whether it did (null: none asked). */
  calibration: ProfileUse | null;
}

/** A calibration profile to decide with, and the running model's version it must match. */
export interface ProfileContext {
  profile: CalibrationProfile;
  modelVersion: string;
}

/**
 * The figures of other writers for the bar that decided (issue 43 item 5): the mode's `otherWriters`
 * when they describe that bar (adapted or calibration-only), else none.
 */
function otherWritersOf(
  profile: CalibrationProfile,
  lang: ReturnType<typeof modelLang>,
  mode: Sensitivity,
  adapted: boolean,
): { otherWriters?: OtherWriters } {
  const figures = profile.languages[lang]?.modes[mode].otherWriters;
  return figures && figures.bar === (adapted ? 'adapted' : 'calibration') ? { otherWriters: figures } : {};
}

/** The passage read as AI most strongly among those read so strongly and at such length (STRONG_PASSAGE_*), or null. */
export function strongAiPassage(r: Pick<EngineResult, 'segments'>): Segment | null {
  let best: Segment | null = null;
  for (const s of r.segments) {
    if (s.label === 'ai' && s.score >= STRONG_PASSAGE_SCORE && s.words >= STRONG_PASSAGE_WORDS && (!best || s.score > best.score)) best = s;
  }
  return best;
}

/**
 * Decide a scored text at a mode, with a calibration profile's threshold where it applies
 * (profile.ts applyProfile): the score is the same, only the bar the whole text is held to moves.
 */
export function decide(
  model: ModelFile,
  docTypes: DocTypeModel | null,
  text: string,
  r: EngineResult,
  mode: Sensitivity,
  withProfile: ProfileContext | null = null,
): Decision {
  const cell = cellOf(model, r.language, r.scoredWords);
  const docType = detectDocType(docTypes, text, r).type;
  const ml = modelLang(r.language);
  const applied = withProfile
    ? applyProfile(
        withProfile.profile,
        {
          lang: ml,
          docType,
          words: r.scoredWords,
          mode,
          globalLogit: model.thresholdLogits[ml][mode],
          modelLogit: r.lexicalLogit,
          // A text with too little prose to judge keeps the model's capped reading (engine.ts UNJUDGED_PROBABILITY): never adapted.
          evidence: r.judged ? evidenceOf(r) : null,
        },
        withProfile.modelVersion,
      )
    : null;
  const adapted = applied?.adapted ?? null;
  // A score is never null (issue 44 item 4): parseProfile bounds a fit's numbers so that this cannot
  // happen; should a profile that was not checked reach here, it is refused, never answered with it.
  if (adapted && !(Number.isFinite(adapted.logit) && Number.isFinite(adapted.probability))) {
    const reason = 'the adaptation gives a score that is not a number';
    throw new CodedError('calibration_invalid', PROFILE_ERROR_STATUS.calibration_invalid, `not a calibration profile: ${reason}`, {
      id: withProfile!.profile.id ?? '',
      reason,
    });
  }
  const probability = adapted ? adapted.probability : r.probability;
  const threshold = adapted
    ? Math.max(adaptedProbability(applied!.thresholdLogit), EVEN_ODDS)
    : applied
      ? aiThresholdAt(cell, applied.thresholdLogit)
      : aiThreshold(cell, mode);
  const found = mixedPassage(model, r, mode);
  const whole = verdictFor(probability, threshold, cell.conclusive[mode]);
  // Issue 45 item 2: an adapted reading that calls the whole text AI decides (a score of 100 beside
  // "mixed" and "the rest reads as human" said two things); its passages stay the model's own reading,
  // and the answer says so (`calibration.passages`). Without adaptation, or below the adapted bar, an AI
  // passage held to the whole-text promise still makes the text mixed.
  const passage = adapted && isAiVerdict(whole) ? null : found;
  let verdictKey: VerdictKey = passage ? 'mixed' : whole;
  const obfuscated = changedLetters(r) > 0;
  const strong = strongAiPassage(r);
  // Changed letters mean the reading cannot be trusted to clear the text: never plainly human. Nor
  // can a text with a long passage that reads strongly as AI be called human as a whole.
  if (isHumanVerdict(verdictKey) && (obfuscated || strong)) verdictKey = 'inconclusive';
  const short = !cell.conclusive[mode] && probability >= EVEN_ODDS;
  const measured = applied?.measured;
  const calibration: ProfileUse | null = applied
    ? adapted
      ? {
          ...applied.use,
          adaptedScore: Math.round(probability * 100),
          modelScore: r.score,
          // An adaptation reads whole texts: the passages of a text of several are the model's.
          ...(r.segments.length > 1 ? { passages: 'model' as const } : {}),
        }
      : applied.use
    : null;
  return {
    mode,
    verdictKey,
    probability,
    adapted,
    mixedPassage: passage,
    cell,
    aiThreshold: threshold,
    short,
    shortBy: short ? { otherMode: SENSITIVITIES.some((m) => cell.conclusive[m]), from: conclusiveFrom(model, r.language, mode) } : null,
    strongAiPassage: strong,
    obfuscated,
    docType,
    measuredError: measured
      ? {
          rate: measured.rate,
          texts: measured.texts,
          upperBound: measured.upperBound,
          source: 'calibration',
          // The profile applies only to the document types it covers: the text's is one of them.
          docType,
          words: measured.words,
          ...otherWritersOf(withProfile!.profile, ml, mode, adapted !== null),
        }
      : measuredError(model, r.language, docType, r.scoredWords, mode),
    calibration,
  };
}
