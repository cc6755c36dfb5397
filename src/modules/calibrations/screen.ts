/**
 * Which texts of a calibration set count, one rule for POST /v1/calibrations and `bun run calibrate`:
 * a text a detection would refuse (longer than MAX_TEXT_CHARS, too many sentences: checkScorable) or
 * under MIN_PROFILE_WORDS is not used, and one the same as or a near-duplicate of a text already taken
 * (learn/distinct.ts: a word dropped, re-spaced, a counter appended; human texts and AI examples
 * together) is a duplicate (issue 40 item 7, issue 44 items 1 and 2). Neither is scored nor charged.
 * A duplicate of a text given on the other side (human and AI) is a labelling conflict (issue 45 item 6):
 * counted, and the profile warns of it (`labelling_conflict`).
 */
import type { CodedError } from '../../contract';
import { type Duplicates, MIN_PROFILE_WORDS } from '../../detector/decide/profile';
import { DistinctTexts } from '../../detector/learn/distinct';
import { ApiError } from '../../http/errors';
import { checkScorable, checkTextLength } from '../detect/service';

/**
 * What the screen says of a text: used (with its words and its id in the set), or why not. A human text
 * whose earlier copy was given as an AI example is used, and `replaces` that example's id: the caller
 * drops it (a text given on both sides is used as human, whatever the order it came in).
 */
export type Screened =
  | { use: true; words: number; id: number; replaces?: number }
  | { use: false; why: 'too_short' }
  /** `conflict`: the earlier copy was given on the other side (a text given as human and as AI). */
  | { use: false; why: 'duplicate'; conflict: boolean }
  | { use: false; why: 'refused'; error: CodedError };

/** The side a text was given on. */
export type Side = 'human' | 'ai';

/** The texts of one set, as they come in. */
export class CalibrationScreen {
  private readonly distinct = new DistinctTexts<Side>();
  private readonly counts = { human: 0, ai: 0, conflicts: 0 };

  constructor(
    private readonly countWords: (text: string) => number,
    private readonly maxTextChars: number,
  ) {}

  /** Whether `text`, given on `side`, counts; its length is checked before a character of it is counted. */
  screen(text: string, side: Side): Screened {
    try {
      checkTextLength(text, this.maxTextChars);
      const words = this.countWords(text);
      if (words < MIN_PROFILE_WORDS) return { use: false, why: 'too_short' };
      checkScorable(text, words, this.maxTextChars);
      const seen = this.distinct.check(text, side);
      if (seen.distinct) return { use: true, words, id: seen.id };
      const conflict = seen.side !== side;
      if (conflict) this.counts.conflicts++;
      if (conflict && side === 'human') {
        // The AI example seen first is the one left out.
        this.counts.ai++;
        this.distinct.relabel(seen.id, side);
        return { use: true, words, id: seen.id, replaces: seen.id };
      }
      this.counts[side]++;
      return { use: false, why: 'duplicate', conflict };
    } catch (error) {
      if (error instanceof ApiError) return { use: false, why: 'refused', error };
      throw error;
    }
  }

  /** The duplicates left out so far, per side, and the labelling conflicts among them (absent when none: the format before them). */
  duplicates(): Duplicates {
    const { human, ai, conflicts } = this.counts;
    return conflicts ? { human, ai, conflicts } : { human, ai };
  }
}
