/**
 * Sensitivity modes and the promise each one makes. The mode never moves the score, only the
 * verdict thresholds: scripts/lib/calibrate.ts sets one threshold per language and mode on
 * family-held-out human texts so that at most MODE_FPR of every family's texts reach it.
 */

export const SENSITIVITIES = ['conservative', 'balanced', 'aggressive'] as const;
export type Sensitivity = (typeof SENSITIVITIES)[number];
/** The mode of a request that names none (JSON, form field and CLI alike). */
export const DEFAULT_SENSITIVITY: Sensitivity = 'conservative';

/** Each mode's promise: the largest share of human texts it may call AI (held out, per source family). */
export const MODE_FPR: Record<Sensitivity, number> = { conservative: 0.01, balanced: 0.03, aggressive: 0.1 };

/** True for a known mode name. */
export function isSensitivity(value: unknown): value is Sensitivity {
  return typeof value === 'string' && (SENSITIVITIES as readonly string[]).includes(value);
}

/** The mode a caller asked for, or the default when it asked for none (null, undefined or ''); undefined for an unknown name. */
export function sensitivityOrDefault(value: unknown): Sensitivity | undefined {
  if (value === null || value === undefined || value === '') return DEFAULT_SENSITIVITY;
  return isSensitivity(value) ? value : undefined;
}
