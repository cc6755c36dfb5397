/**
 * What a profile's bars flag of writers unlike its texts, on its card (issue 43 item 3): per language
 * how its bars were guarded (the API's `guard`: reference texts and groups), then one line per mode
 * from the API's `modes.<mode>.otherWriters` ("other writers: flagged X of N reference texts; most:
 * <label> Y (model alone Z)", and whether the guard raised the bar). The page computes none of these
 * numbers; a population's label is the reference set's name for it, in English in both interfaces.
 */
import { SENSITIVITIES, type Sensitivity } from '../contract/index.ts';
import type { OtherWritersView } from '../modules/detect/other-writers.ts';
import { formatRate, type PublicLanguage } from './calibration.ts';
import { el } from './dom.ts';
import { tr, type UiLang } from './strings.ts';

/** One mode's line on other writers: its bar's share of the reference texts, the population flagged most beside the model alone, and whether the guard raised the bar. */
export function otherWritersText(mode: Sensitivity, o: OtherWritersView, lang: UiLang): string {
  const vars = { mode: tr(lang, `mode_${mode}`), rate: formatRate(o.rate, lang), texts: new Intl.NumberFormat(lang).format(o.texts) };
  // No guarded population (no reference text of the covered kinds): a rate of 0 of 0 would say nothing.
  if (o.populations === 0 || o.texts === 0) return tr(lang, 'otherWritersLineNone', vars);
  const line = o.most
    ? tr(lang, 'otherWritersLine', {
        ...vars,
        label: o.most.label,
        most: formatRate(o.most.rate, lang),
        model: formatRate(o.most.modelRate, lang),
      })
    : tr(lang, 'otherWritersLineNoMost', vars);
  return o.raised ? line + tr(lang, 'otherWritersRaised') : line;
}

/**
 * What each mode's bar flags of reference writers unlike the profile's (issue 43 item 3), the API's
 * `modes.<mode>.otherWriters`, one line per mode; null for a profile made without the reference set.
 */
export function otherWritersBlock(language: PublicLanguage, lang: UiLang): HTMLElement | null {
  const rows = SENSITIVITIES.flatMap((mode) => {
    const o = language.modes[mode].otherWriters;
    return o ? [{ mode, o }] : [];
  });
  if (!rows.length) return null;
  const box = el('div', 'other-writers');
  const note = language.guard;
  const nf = new Intl.NumberFormat(lang);
  const head = note
    ? tr(lang, 'otherWritersGuard', { references: nf.format(note.references), populations: nf.format(note.populations) })
    : tr(lang, 'otherWritersHead');
  box.appendChild(el('p', 'other-writers-head', head));
  if (note?.made === 'on_load') box.appendChild(el('p', 'hint other-writers-on-load', tr(lang, 'otherWritersOnLoad')));
  const list = el('ul', 'other-writers-modes');
  for (const { mode, o } of rows) {
    const item = el('li', o.raised ? 'raised' : '', otherWritersText(mode, o, lang));
    Object.assign(item.dataset, {
      mode,
      texts: String(o.texts),
      flagged: String(o.flagged),
      rate: String(o.rate),
      raised: String(o.raised),
    });
    if (o.most) Object.assign(item.dataset, { population: o.most.id, mostRate: String(o.most.rate), modelRate: String(o.most.modelRate) });
    list.appendChild(item);
  }
  box.append(list, el('p', 'hint other-writers-help', tr(lang, 'otherWritersHelp')));
  return box;
}
