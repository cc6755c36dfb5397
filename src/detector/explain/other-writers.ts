/**
 * Other writers in words (issue 43 items 3 and 5): what a profile's bar flags of reference human
 * writers unlike the profile's (decide/guard.ts `OtherWriters`), as the answer's second measured-error
 * sentence and as the `calibrate` summary's line per mode. Shares are written as every surface writes
 * them (one decimal, the label language's format), so the CLI, the API's sentence and the playground
 * quote the same figures. A population's label is the reference set's name for it, in English: quoted as a
 * name in every label language (the set's populations are source families, named by the set, not by
 * the catalogues).
 */
import { MODEL_LANGS, SENSITIVITIES, type LabelLang, type ModelLang, type Sensitivity } from '../../contract';
import { formatCount, formatShare, t } from '../../i18n';
import type { OtherWriters } from '../decide/guard';
import type { CalibrationProfile } from '../decide/profile';

/** The shares and counts a sentence about other writers quotes, in the label language. */
function params(o: OtherWriters, lang: LabelLang): Record<string, string> {
  const figures: Record<string, string> = { rate: formatShare(lang, o.rate), texts: formatCount(lang, o.texts) };
  if (o.most)
    Object.assign(figures, { label: o.most.label, most: formatShare(lang, o.most.rate), model: formatShare(lang, o.most.modelRate) });
  return figures;
}

/** Which sentence fits the figures: with the population flagged most, without one, or none guarded (no reference text of the covered kinds: a rate of 0 of 0 says nothing). */
function variant<K extends string>(o: OtherWriters, key: K): K | `${K}NoMost` | `${K}None` {
  if (o.populations === 0 || o.texts === 0) return `${key}None`;
  return o.most ? key : `${key}NoMost`;
}

/** The measured error's sentence on other writers: "Writers unlike yours (...): this mode flagged X of N; most: <label>, Y (the model alone Z)." */
export function otherWritersSentence(o: OtherWriters, lang: LabelLang): string {
  return t(lang, `measuredError.${variant(o, 'otherWriters')}`, params(o, lang));
}

/** One mode's line of a profile summary: "en balanced: other writers: flagged X of N reference texts; most: <label> Y (model alone Z)", and whether the guard raised the bar. */
export function otherWritersLine(o: OtherWriters, language: ModelLang, mode: Sensitivity, lang: LabelLang): string {
  const line = t(lang, `otherWriters.${variant(o, 'line')}`, { ...params(o, lang), lang: language, mode });
  return o.raised ? line + t(lang, 'otherWriters.raised') : line;
}

/**
 * Per language of a profile, how its bars were guarded (`guard`: reference texts and populations), then
 * per mode with the figures its line (otherWritersLine), in language then mode order.
 */
export function profileOtherWritersLines(profile: Pick<CalibrationProfile, 'languages'>, lang: LabelLang): string[] {
  const out: string[] = [];
  for (const language of MODEL_LANGS) {
    const l = profile.languages[language];
    if (l?.guard) {
      const { references, populations } = l.guard;
      out.push(
        t(lang, 'otherWriters.guard', {
          lang: language,
          references: formatCount(lang, references),
          populations: formatCount(lang, populations),
        }),
      );
    }
    const modes = l?.modes;
    for (const mode of SENSITIVITIES) {
      const o = modes?.[mode].otherWriters;
      if (o) out.push(otherWritersLine(o, language, mode, lang));
    }
  }
  return out;
}
