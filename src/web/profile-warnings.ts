/**
 * A profile's warnings in one sentence of the interface language (issues 39 and 43): a mode without a
 * bar of its own, a language not adapted (and why), AI examples the model ranks below the human texts,
 * AI examples that differ from the human texts mainly in a surface form (which form, on how many of
 * each side, and what to check), and an adapted mode that falls back to calibration-only. The API sends
 * codes and numbers; the words are the page's (strings.ts), the same as the server's own (src/i18n).
 */
import type { PublicWarning } from './calibration.ts';
import { formatRate } from './calibration.ts';
import { tr, type StringKey, type UiLang } from './strings.ts';

/** A warning of the API in one sentence of the interface language (the language is the block's it is shown in). */
export function warningText(w: PublicWarning, lang: UiLang): string {
  const nf = new Intl.NumberFormat(lang);
  switch (w.code) {
    case 'mode_not_covered':
      return tr(lang, 'warnModeNotCovered', { mode: tr(lang, `mode_${w.mode!}`), texts: w.texts ?? 0, needed: w.needed ?? 0 });
    case 'examples_rank_below_human':
      return tr(lang, 'warn_examples_rank_below_human', {
        n: nf.format(w.aiTexts ?? 0),
        auroc: new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }).format(w.auroc ?? 0),
      });
    case 'examples_differ_in_form': {
      const word = { word: w.word ?? '' };
      return tr(lang, 'warn_examples_differ_in_form', {
        form: tr(lang, `form_${w.form!}` as StringKey, word),
        ai: formatRate(w.ai ?? 0, lang),
        human: formatRate(w.human ?? 0, lang),
        check: tr(lang, `check_${w.form!}` as StringKey, word),
      });
    }
    case 'mode_fell_back':
      return tr(lang, 'warn_mode_fell_back', {
        mode: tr(lang, `mode_${w.mode!}`),
        n: nf.format(w.aiTexts ?? 0),
        caught: nf.format(w.caught ?? 0),
        modelCaught: nf.format(w.modelCaught ?? 0),
      });
    case 'labelling_conflict':
      return tr(lang, 'warnLabellingConflict', { n: w.count ?? 0 });
    default:
      return tr(lang, `notAdapted_${w.reason!}` as StringKey, { n: w.aiTexts ?? 0, min: w.needed ?? 0 });
  }
}
