/**
 * One JSON line of `calibrate`'s input (issues 38 and 45): its text and label, or what stops the
 * command: a label other than "human" or "ai", or a key it does not know (`{"text", "ai": true}`
 * was counted as a human text). A line that is not a JSON object with a string `text` is null.
 */

/** The keys a calibration JSON line may have (`id`, as `detect --jsonl` lines carry one, is ignored). */
export const LINE_KEYS: ReadonlySet<string> = new Set(['text', 'label', 'id']);

/** A line's reading: its text and label ("human" when absent), or the label or key it should not have. */
export type JsonLine = { text: string; label: 'human' | 'ai' | undefined; badLabel?: unknown } | { unknownKey: string; meant: boolean };

/**
 * A JSON line's text and label ("human" when absent); null when it has no string `text`; label
 * undefined (with `badLabel`) for a label other than "human" or "ai"; `unknownKey` for a key other
 * than LINE_KEYS (`meant`: it looks like an AI label, `"ai": true`, `"is_ai"`).
 */
export function jsonLine(raw: string): JsonLine | null {
  let value: unknown;
  try {
    value = JSON.parse(raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const { text, label } = value as { text?: unknown; label?: unknown };
  if (typeof text !== 'string') return null;
  const unknownKey = Object.keys(value).find((k) => !LINE_KEYS.has(k));
  if (unknownKey !== undefined) return { unknownKey, meant: /^(is_?)?ai$|^ai_|^labels?$|^type$|^kind$/i.test(unknownKey) };
  if (label === undefined || label === 'human') return { text, label: 'human' };
  if (label === 'ai') return { text, label: 'ai' };
  return { text, label: undefined, badLabel: label };
}
