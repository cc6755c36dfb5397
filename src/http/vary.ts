/** The Vary response header, built up by several hooks without one overwriting another. */

/**
 * `current` with `field` added once (RFC 9110 §12.5.5: a comma list of request field names,
 * compared case-insensitively).
 */
export function addVary(current: unknown, field: string): string {
  if (typeof current !== 'string' || current.trim() === '') return field;
  const fields = current.split(',').map((part) => part.trim().toLowerCase());
  return fields.includes(field.toLowerCase()) || fields.includes('*') ? current : `${current}, ${field}`;
}
