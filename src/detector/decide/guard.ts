/**
 * The guard on every bar of a profile (issue 43 item 3). For each mode, a profile's bar (adapted or
 * calibration-only) is raised until no reference population (./reference.ts) of the covered document
 * types and lengths is flagged more than the model alone flags it plus MODE_GUARD_MARGIN, or the
 * mode's floor (MODE_GUARD_FLOOR), whichever is higher. Per population, not pooled: the populations a
 * site's archive leaves out are minorities (second-language writers, another formatting), and a pooled
 * rate hides them (DETECTION_NOTES.md, seventh round, item 3).
 *
 * THE SEAM (agreed before the work of issue 43 was split): `OtherWriters` is what each mode of a
 * profile states (`languages.<lang>.modes.<mode>.otherWriters`: the bar a covered detection applies at
 * that mode, adapted where the language is adapted at that mode); the guard's figures count what a
 * detection with the profile would decide for each reference text (threshold-rule.ts flags).
 */
import { round6, type Sensitivity } from '../../contract';
import type { OtherWriters, PopulationFlags } from './other-writers';
import { flags, justAbove, type RuleText } from './threshold-rule';

export type { GuardNote, OtherWriters, PopulationFlags } from './other-writers';

/** Points a population may be flagged above what the model alone flags it, per mode (issue 43 item 6's targets). */
export const MODE_GUARD_MARGIN: Readonly<Record<Sensitivity, number>> = { conservative: 0.01, balanced: 0.015, aggressive: 0.03 };
/** A population may always be flagged this much, per mode (about 1.5 / 4 / 12%: a little over each promise). */
export const MODE_GUARD_FLOOR: Readonly<Record<Sensitivity, number>> = { conservative: 0.015, balanced: 0.04, aggressive: 0.12 };
/** A reference population is guarded only with this many covered texts (fewer say too little about its rate). */
export const MIN_GUARD_TEXTS = 20;

/** One reference population as the guard reads it at one mode. */
export interface GuardPopulation {
  id: string;
  label: string;
  /** Its covered reference texts, each as a detection with the profile decides it (threshold-rule.ts). */
  texts: readonly RuleText[];
  /** How many of them the model alone flags at the mode (its own bar; mixed texts too). */
  modelFlagged: number;
}

/** What the guard gives one bar: the bar (raised or not) and the figures the mode states. */
export interface GuardedBar {
  bar: number;
  otherWriters: OtherWriters;
}

/** Each population's allowance: the most texts it may have flagged, max(model + margin, floor) of its texts. */
function allowance(p: GuardPopulation, mode: Sensitivity): number {
  const n = p.texts.length;
  const share = Math.max(p.modelFlagged / n + MODE_GUARD_MARGIN[mode], MODE_GUARD_FLOOR[mode]);
  // A hair of slack: 0.04 * 50 must allow 2, not 1.9999999.
  return Math.floor(share * n + 1e-9);
}

/**
 * The guard on one bar (pure): the lowest bar at or above `bar` at which every population with
 * MIN_GUARD_TEXTS+ texts is flagged at most max(its model rate + MODE_GUARD_MARGIN, MODE_GUARD_FLOOR)
 * at `mode`, each population on its own (a pooled rate would let a minority be flagged at any rate).
 * Raising a bar unflags a text once it passes the text's logit (flags() is monotone in the bar); a
 * text flagged whatever the bar (mixed) stays flagged, so a population with more of those than its
 * allowance leaves the bar just above the highest text a bar can unflag. `kind` names the bar the
 * figures are of; `raise: false` states the figures of `bar` without moving it (a mode without a bar
 * of its own).
 */
export function guardBar(
  populations: readonly GuardPopulation[],
  bar: number,
  mode: Sensitivity,
  kind: OtherWriters['bar'],
  raise = true,
): GuardedBar {
  const guarded = populations.filter((p) => p.texts.length >= MIN_GUARD_TEXTS);
  const allowed = guarded.map((p) => allowance(p, mode));
  const flagged = guarded.map((p) => p.texts.filter((t) => flags(t, bar)).length);
  // The texts a higher bar can unflag, lowest logit first: flagged by `bar`, not whatever the bar.
  const movable = guarded
    .flatMap((p, i) => p.texts.filter((t) => !t.always && flags(t, bar)).map((t) => ({ logit: t.logit, p: i })))
    .sort((a, b) => a.logit - b.logit);
  let at = bar;
  let next = 0;
  const over = () => flagged.some((f, i) => f > allowed[i]);
  while (raise && over() && next < movable.length) {
    // Past this logit: every movable text at it is unflagged at once (ties move together).
    const logit = movable[next].logit;
    while (next < movable.length && movable[next].logit === logit) flagged[movable[next++].p]--;
    at = justAbove(logit);
  }
  const figures = guarded.map(
    (p, i): PopulationFlags => ({
      id: p.id,
      label: p.label,
      texts: p.texts.length,
      flagged: flagged[i],
      rate: round6(flagged[i] / p.texts.length),
      modelRate: round6(p.modelFlagged / p.texts.length),
    }),
  );
  const texts = figures.reduce((n, p) => n + p.texts, 0);
  const total = figures.reduce((n, p) => n + p.flagged, 0);
  // The most flagged by rate; on a tie, the one with more texts (its rate says more), then the first.
  const most = figures.reduce<PopulationFlags | null>(
    (m, p) => (m === null || p.rate > m.rate || (p.rate === m.rate && p.texts > m.texts) ? p : m),
    null,
  );
  return {
    bar: at,
    otherWriters: {
      bar: kind,
      texts,
      flagged: total,
      rate: round6(texts ? total / texts : 0),
      populations: figures.length,
      most,
      raised: at !== bar,
    },
  };
}
