/**
 * A calibration set's languages, checked before anything is scored or charged (issues 44 item 7 and
 * 45 item 1). A profile sets each language's bars on that language's known-human texts, so:
 *   - a language with some human texts but fewer than MIN_PROFILE_TEXTS is refused
 *     (`calibration_too_small`, as the profile build would after scoring them all);
 *   - AI examples of a language with no human text cannot be used (nothing to set a bar on): refused
 *     (`calibration_ai_without_human`, naming the language and the count), where they used to be
 *     scored, charged and dropped in silence beside "no AI examples".
 * Refused, not made with a warning: the operator meant those examples to adapt that language, and a
 * profile made without them would look finished while it is not what was asked for.
 *
 * The check runs twice: on a first reading of each text's language (detector.language: the opening's
 * stop words, no scoring; free), and on the languages scoring gives. They agree for almost every
 * text (all 9,806 dev texts, engine.ts FIRST_READING_CHARS); a refusal only the second can make (a
 * text whose opening reads as another language than the whole) comes after the work, and is charged.
 */
import { type ModelLang, MODEL_LANGS } from '../../contract';
import { MIN_PROFILE_TEXTS, MIN_PROFILE_WORDS } from '../../detector/decide/profile';
import { ApiError } from '../../http/errors';

/** Texts per model language. */
export type LanguageCounts = Partial<Record<ModelLang, number>>;

/** How many of `langs` each language has. */
export function countLanguages(langs: Iterable<ModelLang>): LanguageCounts {
  const out: LanguageCounts = {};
  for (const lang of langs) out[lang] = (out[lang] ?? 0) + 1;
  return out;
}

/**
 * Throws the refusal a set of these languages gets, or nothing: first a language with too few human
 * texts, then AI examples of a language without human texts (MODEL_LANGS order). `scored`: the
 * languages come from scoring, and the texts were charged (the message says so).
 */
export function checkLanguages(human: LanguageCounts, ai: LanguageCounts, scored = false): void {
  const variant: Record<string, string> = scored ? { variant: 'scored' } : {};
  for (const language of MODEL_LANGS) {
    const count = human[language] ?? 0;
    if (count > 0 && count < MIN_PROFILE_TEXTS) {
      throw new ApiError('calibration_too_small', { ...variant, language, count, min: MIN_PROFILE_TEXTS, minWords: MIN_PROFILE_WORDS });
    }
  }
  for (const language of MODEL_LANGS) {
    const count = ai[language] ?? 0;
    if (count > 0 && !human[language]) {
      throw new ApiError('calibration_ai_without_human', { ...variant, language, count, min: MIN_PROFILE_TEXTS });
    }
  }
}
