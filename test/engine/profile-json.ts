/** A profile's JSON changed for a test, and what reading one back says of it (shared by the profile tests). */
import { parseProfile } from '../../src/detector/decide/profile';

/** A deep copy of a profile as JSON, changed by `change`. */
export function mutated(profile: unknown, change: (p: ReturnType<typeof JSON.parse>) => void): ReturnType<typeof JSON.parse> {
  const copy = JSON.parse(JSON.stringify(profile));
  change(copy);
  return copy;
}

/** parseProfile's message for `value`, or 'accepted'. */
export function refusal(value: unknown): string {
  try {
    parseProfile(value);
  } catch (e) {
    return (e as Error).message;
  }
  return 'accepted';
}
