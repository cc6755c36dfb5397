/**
 * The figures a profile states of writers outside its texts (issue 43 item 3; the guard that sets them
 * is ./guard.ts, which re-exports these types). Their own file so that threshold-rule.ts can name them
 * while guard.ts uses the threshold rule, without an import cycle.
 */

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

/** How a language's bars were guarded (`languages.<lang>.guard`); absent: made without a reference set, not guarded. */
export interface GuardNote {
  /** Reference texts of the language the profile covers (document type and length), in all populations. */
  references: number;
  /** Populations with MIN_GUARD_TEXTS+ covered texts: the ones guarded. */
  populations: number;
  /** When the guard was computed: as the profile was made, or as an older profile (format 1 or 2) was loaded. */
  made: 'with_profile' | 'on_load';
}
