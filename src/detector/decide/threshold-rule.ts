/**
 * The threshold rule of a calibration profile (docs/calibration.md, "The threshold rule"), for the
 * model's logits and for an adaptation's cross-fitted ones alike: from n scored human texts of one
 * population, the bar a mode may set, how many of those texts the bar ACTUALLY flags (issue 38 item 8:
 * with the even-odds floor, the cell's conclusiveness and the mixed verdict, as a detection decides),
 * and the exact 95% bound on the share of the population it flags.
 */
import { round6, type Sensitivity } from '../../contract';
import { binomialUpperBound } from '../score/bounds';
import type { DocType } from '../score/doctype';
import type { OtherWriters } from './other-writers';

/** What a profile keeps of one text it was made from: its scores and its kind, never its words. */
export interface ProfileSample {
  /** The model's logit for the text (the decision variable the global thresholds are set on). */
  logit: number;
  /** The model's calibrated probability (0-1). */
  probability: number;
  /** Scored words (EngineResult.scoredWords): the length bucket. */
  words: number;
  docType: DocType;
  /** The modes at which the text's passages make it `mixed` (flagged whatever the bar); absent: none. */
  mixed?: Sensitivity[];
  /** The adapted logit from a fit that never saw the text (an adapted profile's texts only). */
  adaptedLogit?: number;
}

/** One mode's threshold in one language of a profile, and what it did to the profile's own texts. */
export interface ProfileModeThreshold {
  /** Logit from which this mode calls a covered text AI, or null: too few texts to keep the promise (the global threshold applies). */
  thresholdLogit: number | null;
  /** The texts the threshold flags as a detection would (mixed, or at or above it at even odds or more in a conclusive cell), of `texts`. */
  flagged: number;
  texts: number;
  /** flagged / texts (6 decimals). */
  rate: number;
  /** One-sided 95% upper bound on the share of the population's human texts this threshold flags (6 decimals). */
  upperBound: number;
  /**
   * The threshold on the 0-100 score scale for a text in the middle of the covered length (the score
   * depends on length: exact at that length, close elsewhere), never below even odds (50); null with
   * no threshold. Absent when the profile was made without the model's calibration (offline tests).
   */
  thresholdScore?: number | null;
  /**
   * What the bar a covered detection applies at this mode flags of reference writers outside the
   * profile's texts (./guard.ts; issue 43 item 3). Only `languages.<lang>.modes.<mode>` carries it;
   * absent in a profile made without a reference set.
   */
  otherWriters?: OtherWriters;
}

/** One text at one mode, as the rule reads it. */
export interface RuleText {
  /** The logit the bar is set on (the model's, or the adapted one). */
  logit: number;
  /** Flagged whatever the bar: its passages make it `mixed` at this mode. */
  always: boolean;
  /** Never flagged by a bar: under even odds, or too short for the mode (an unconclusive cell). */
  never: boolean;
  /** The lowest bar the text is held to: the global one for a text the profile does not cover (the stricter of the two decides), else -Infinity. */
  floor: number;
}

/** Whether a bar flags a text, as a detection decides. */
export function flags(t: RuleText, bar: number): boolean {
  return t.always || (!t.never && t.logit >= Math.max(bar, t.floor));
}

/**
 * How many of `n` calibration texts a mode with promise `fpr` may leave flagged: the largest k with
 * (k + 1) / (n + 1) <= fpr, or -1 when even k = 0 cannot keep it (n + 1 < 1 / fpr).
 *
 * THE RULE: the bar sits just above the (k+1)-th highest logit of the n human texts, a text flagged
 * whatever the bar (mixed) counting as the highest, so at most k of them are flagged. For a new human
 * text of the same population, the chance it is flagged is at most (k + 1) / (n + 1) on average over
 * the calibration sets (the split-conformal guarantee), i.e. at most the mode's promise, and with 95%
 * confidence at most binomialUpperBound(k, n): the `upperBound` every mode states, of the texts it
 * actually flags.
 */
export function allowedFlags(n: number, fpr: number): number {
  return Math.floor(fpr * (n + 1) + 1e-9) - 1;
}

/** Just above a logit: the threshold leaves this text (and any equal to it) unflagged. */
export const justAbove = (logit: number) => logit + Math.max(1e-9, Math.abs(logit) * 1e-12);

/** A mode's figures for `flagged` of `n` texts. */
function figures(thresholdLogit: number | null, flagged: number, n: number): ProfileModeThreshold {
  return { thresholdLogit, flagged, texts: n, rate: round6(n ? flagged / n : 0), upperBound: round6(binomialUpperBound(flagged, n)) };
}

/** A given bar over the texts and what it flags (a bar the guard raised: ./guard.ts). */
export function barFigures(texts: readonly RuleText[], thresholdLogit: number): ProfileModeThreshold {
  let flagged = 0;
  for (const t of texts) if (flags(t, thresholdLogit)) flagged++;
  return figures(thresholdLogit, flagged, texts.length);
}

/** One mode's bar over the texts, by the rule of allowedFlags(), and what it flags. */
export function ruleThreshold(texts: readonly RuleText[], fpr: number): ProfileModeThreshold {
  const n = texts.length;
  const k = allowedFlags(n, fpr);
  // Too few texts for this promise: no threshold, and the bound of the best the texts could do (none flagged).
  if (k < 0 || n === 0) return figures(null, 0, n);
  const ranked = texts.map((t) => (t.always ? Number.POSITIVE_INFINITY : t.logit)).sort((a, b) => b - a);
  const cut = ranked[k];
  // More texts are flagged whatever the bar than the promise allows: the bar flags nothing more (just above the
  // highest logit; a reduce, as the CLI takes any number of texts and Math.max(...) of a million overflows the stack).
  const thresholdLogit = justAbove(Number.isFinite(cut) ? cut : texts.reduce((m, t) => Math.max(m, t.logit), Number.NEGATIVE_INFINITY));
  return barFigures(texts, thresholdLogit);
}

/** The rule over plain logits (every text can be flagged, none is whatever the bar). */
export function modeThreshold(logits: readonly number[], fpr: number): ProfileModeThreshold {
  return ruleThreshold(
    logits.map((logit) => ({ logit, always: false, never: false, floor: Number.NEGATIVE_INFINITY })),
    fpr,
  );
}
