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
import type { Sensitivity } from '../../contract';

/** Points a population may be flagged above what the model alone flags it, per mode (issue 43 item 6's targets). */
export const MODE_GUARD_MARGIN: Readonly<Record<Sensitivity, number>> = { conservative: 0.01, balanced: 0.015, aggressive: 0.03 };
/** A population may always be flagged this much, per mode (about 1.5 / 4 / 12%: a little over each promise). */
export const MODE_GUARD_FLOOR: Readonly<Record<Sensitivity, number>> = { conservative: 0.015, balanced: 0.04, aggressive: 0.12 };
/** A reference population is guarded only with this many covered texts (fewer say too little about its rate). */
export const MIN_GUARD_TEXTS = 20;

/** One population's figures at a mode. */
export interface PopulationFlags {
  /** ReferencePopulation.id and label. */
  id: string;
  label: string;
  /** Covered reference texts of the population. */
  texts: number;
  /** Flagged by the profile's bar, as a detection with it decides, and their share. */
  flagged: number;
  rate: number;
  /** The share the model alone (no profile) flags. */
  modelRate: number;
}

/** What a mode of a profile says of writers outside its texts (`otherWriters`). */
export interface OtherWriters {
  /** The bar these figures are of: the adapted one, or the calibration-only one. */
  bar: 'adapted' | 'calibration';
  /** Covered reference texts (all guarded populations), flagged by the bar, and their share. */
  texts: number;
  flagged: number;
  rate: number;
  /** Populations with MIN_GUARD_TEXTS+ covered texts. */
  populations: number;
  /** The population flagged most (by rate), or null with none guarded. */
  most: PopulationFlags | null;
  /** Whether the guard raised the bar (the profile's own texts would have set a lower one). */
  raised: boolean;
}
