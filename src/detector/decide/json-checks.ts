/** The checks of a stored value's shapes that reading a profile back shares (./profile.ts parseProfile, ./guard-parse.ts). */

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
export const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
export const isShare = (v: unknown): v is number => typeof v === 'number' && v >= 0 && v <= 1;
/** Stated figures are rounded to 6 decimals: a recomputed one may differ by this much. */
export const SLACK = 2e-6;
/** Whether a stated share is `count` of `of` (to SLACK). */
export const isShareOf = (rate: number, count: number, of: number) => Math.abs(rate - count / Math.max(1, of)) <= SLACK;
