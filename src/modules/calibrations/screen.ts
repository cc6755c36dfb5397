/**
 * Which texts of a calibration set count, one rule for POST /v1/calibrations and `bun run calibrate`:
 * a text a detection would refuse (longer than MAX_TEXT_CHARS, too many sentences: checkScorable) or
 * under MIN_PROFILE_WORDS is not used, and one the same as a text already taken (learn/distinct.ts,
 * human texts and AI examples together) is a duplicate (issue 40 item 7). Neither is scored nor charged.
 */
import type { CodedError } from '../../contract';
import { MIN_PROFILE_WORDS } from '../../detector/decide/profile';
import { DistinctTexts } from '../../detector/learn/distinct';
import { ApiError } from '../../http/errors';
import { checkScorable, checkTextLength } from '../detect/service';

/** What the screen says of a text: used (with its words), or why not. */
export type Screened =
  | { use: true; words: number }
  | { use: false; why: 'too_short' | 'duplicate' }
  | { use: false; why: 'refused'; error: CodedError };

/** The texts of one set, as they come in. */
export class CalibrationScreen {
  private readonly distinct = new DistinctTexts();

  constructor(
    private readonly countWords: (text: string) => number,
    private readonly maxTextChars: number,
  ) {}

  /** Whether `text` counts; its length is checked before a character of it is counted. */
  screen(text: string): Screened {
    try {
      checkTextLength(text, this.maxTextChars);
      const words = this.countWords(text);
      if (words < MIN_PROFILE_WORDS) return { use: false, why: 'too_short' };
      checkScorable(text, words, this.maxTextChars);
      if (!this.distinct.add(text)) return { use: false, why: 'duplicate' };
      return { use: true, words };
    } catch (error) {
      if (error instanceof ApiError) return { use: false, why: 'refused', error };
      throw error;
    }
  }
}
