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
 * text (all 9,806 dev texts, engine.ts FIRST_READING_CHARS), but not for all: the bench's corpus texts,
 * English as a whole, opened in Spanish 11 times in 150. So before refusing on a first reading, the
 * texts of the language it would refuse for are read in full (confirmedReadings: at most 49 human
 * texts, or the AI examples of a language without human texts), and only a refusal those readings
 * confirm is made before scoring. A refusal only the scoring can make comes after the work, and is
 * charged.
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

/** What a refusal of `checkLanguages` would be about: the languages whose texts it counts (too few human texts, or AI examples without any). */
function doubtful(human: LanguageCounts, ai: LanguageCounts): Set<ModelLang> {
  const out = new Set<ModelLang>();
  for (const language of MODEL_LANGS) {
    const count = human[language] ?? 0;
    if (count > 0 && count < MIN_PROFILE_TEXTS) out.add(language);
    if ((ai[language] ?? 0) > 0 && !human[language]) out.add(language);
  }
  return out;
}

/**
 * The first readings with those of the texts a refusal would be about replaced by `readInFull` (a
 * scoring's language): each side's `texts` and `readings` are aligned. Only the languages a refusal
 * names are read again, so a set that is fine costs nothing more.
 */
export function confirmedReadings(
  texts: { human: readonly string[]; ai: readonly string[] },
  readings: { human: ModelLang[]; ai: ModelLang[] },
  readInFull: (text: string) => ModelLang,
): { human: ModelLang[]; ai: ModelLang[] } {
  const suspects = doubtful(countLanguages(readings.human), countLanguages(readings.ai));
  if (!suspects.size) return readings;
  const again = (side: 'human' | 'ai') => readings[side].map((lang, i) => (suspects.has(lang) ? readInFull(texts[side][i]) : lang));
  return { human: again('human'), ai: again('ai') };
}
