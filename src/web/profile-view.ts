/**
 * A profile's card on the Calibration tab (issues 34, 38 and 39): per language its texts and covered
 * length, what adapting to the AI examples learned (or why it did not, in a person's words), the
 * warnings the API gives (a mode without a bar of its own, a language not adapted), and a table of the
 * three modes: the bar, its own texts flagged with n, the 95% upper bound and, when adapted, what the
 * bar catches of the AI examples beside the model alone; then, per mode, what its bar flags of other
 * writers (reference texts unlike the profile's, issue 43). The page computes none of these numbers.
 */
import { MODEL_LANGS, SENSITIVITIES, type ModelLang, type Sensitivity } from '../contract/index.ts';
import {
  formatRate,
  type AdaptedMode,
  type PublicLanguage,
  type PublicMode,
  type PublicProfile,
  type PublicWarning,
} from './calibration.ts';
import { el } from './dom.ts';
import { otherWritersBlock } from './other-writers-view.ts';
import { warningText } from './profile-warnings.ts';

export { warningText };
import { tr, type StringKey, type UiLang } from './strings.ts';

/** The mode whose catch the adaptation's one-line summary quotes (the default sensitivity, as the CLI does). */
const SUMMARY_MODE: Sensitivity = 'balanced';

/**
 * What adapting did for a language: `adapted` with what it catches of the examples beside the model
 * alone; `not-adapted` with the API's `not_adapted` warning (a reason the person can act on); or
 * `calibration-only` when no AI example of the language was given (asked for, so not a warning).
 */
export function adaptationText(
  language: Pick<PublicLanguage, 'adaptation' | 'notAdapted'>,
  warning: PublicWarning | undefined,
  lang: UiLang,
): { state: 'adapted' | 'not-adapted' | 'calibration-only'; text: string } {
  const a = language.adaptation;
  if (a) {
    const m = a.modes[SUMMARY_MODE];
    const vars = { n: a.aiTexts, caught: formatRate(m.catchRate, lang), model: formatRate(m.modelCatchRate, lang) };
    return { state: 'adapted', text: tr(lang, 'adaptedLine', vars) };
  }
  if (warning) return { state: 'not-adapted', text: warningText(warning, lang) };
  const why = language.notAdapted;
  // A reason the API did not warn about (an older summary): said in the same words.
  if (why && why.reason !== 'no_ai_texts')
    return { state: 'not-adapted', text: tr(lang, `notAdapted_${why.reason}` as StringKey, { n: why.aiTexts, min: why.minAiTexts }) };
  return { state: 'calibration-only', text: tr(lang, 'notAdapted_no_ai_texts') };
}

/** The row's cells after the mode's name: the bar, its own texts flagged (k of n, rate), the upper bound, and the catch when adapted. */
function modeCells(m: PublicMode | AdaptedMode, lang: UiLang, showScore: boolean, aiTexts: number): HTMLTableCellElement[] {
  const nf = new Intl.NumberFormat(lang, { maximumFractionDigits: showScore ? 0 : 2 });
  const threshold = showScore && m.thresholdScore != null ? m.thresholdScore : m.thresholdLogit!;
  const flagged = tr(lang, 'ownFlagged', { k: nf.format(m.flagged), n: nf.format(m.texts), rate: formatRate(m.rate, lang) });
  const cells = [
    el('td', 'num threshold', nf.format(threshold)),
    el('td', 'num flagged', flagged),
    el('td', 'num bound', formatRate(m.upperBound, lang)),
  ];
  // The column's name, shown before the value where the table is laid out as one block per mode (narrow screens).
  const labels: StringKey[] = [showScore ? 'colThreshold' : 'colThresholdLogit', 'colOwnFlagged', 'colUpperBound'];
  cells[1].dataset.flagged = String(m.flagged);
  // Texts read as mixed are flagged whatever the bar: why a mode may flag more than its rule allows (issue 45 item 7).
  if (m.mixed) {
    cells[1].dataset.mixed = String(m.mixed);
    cells[1].appendChild(el('span', 'own-mixed', tr(lang, 'ownMixed', { m: nf.format(m.mixed) })));
  }
  cells[1].dataset.texts = String(m.texts);
  cells[2].dataset.bound = String(m.upperBound);
  if ('caught' in m) {
    const caught = el(
      'td',
      'num caught',
      tr(lang, 'aiCaught', {
        rate: formatRate(m.catchRate, lang),
        k: nf.format(m.caught),
        n: nf.format(aiTexts),
        model: formatRate(m.modelCatchRate, lang),
      }),
    );
    caught.dataset.caught = String(m.caught);
    caught.dataset.modelCaught = String(m.modelCaught);
    cells.push(caught);
    labels.push('colAiCaught');
  }
  cells.forEach((td, i) => {
    td.dataset.label = tr(lang, labels[i]);
  });
  return cells;
}

/** One row of a language's modes table (the adapted bars, with their catch, when the language is adapted). */
function modeRow(
  mode: Sensitivity,
  m: PublicMode | AdaptedMode,
  lang: UiLang,
  showScore: boolean,
  columns: number,
  aiTexts: number,
): HTMLTableRowElement {
  const row = el('tr');
  row.dataset.mode = mode;
  const head = el('th', '', tr(lang, `mode_${mode}`));
  head.scope = 'row';
  row.appendChild(head);
  if ('fallback' in m && m.fallback) {
    // The adapted bar gave way to the calibration-only one (issue 43 item 4): say so, with what each caught.
    const nf = new Intl.NumberFormat(lang);
    const td = el(
      'td',
      'mode-fell-back',
      tr(lang, 'modeFellBack', {
        caught: `${nf.format(m.caught)}/${nf.format(aiTexts)}`,
        model: `${nf.format(m.modelCaught)}/${nf.format(aiTexts)}`,
      }),
    );
    td.colSpan = columns - 1;
    td.dataset.fallback = m.fallback;
    row.appendChild(td);
    return row;
  }
  if (m.thresholdLogit === null) {
    const td = el('td', 'mode-default', tr(lang, 'modeDefault'));
    td.colSpan = columns - 1;
    row.appendChild(td);
    return row;
  }
  row.append(...modeCells(m, lang, showScore, aiTexts));
  return row;
}

/** The line that names a language, its texts and the length it covers. */
function languageLine(code: ModelLang, language: PublicLanguage, lang: UiLang): string {
  const nf = new Intl.NumberFormat(lang);
  const vars = { lang: tr(lang, `lang_${code}`), n: nf.format(language.texts) };
  const words = language.words;
  // null (or {min: 0, max: 0}): no length bucket had enough texts, so the profile covers no length.
  if (words === null || words.max === 0) return tr(lang, 'profileLangNoLength', vars);
  if (words.max === null) return tr(lang, 'profileLangOpen', { ...vars, min: nf.format(words.min) });
  return tr(lang, 'profileLang', { ...vars, min: nf.format(words.min), max: nf.format(words.max) });
}

/** The warnings a language block says in their own places (the rest follow its adaptation line). */
const BLOCK_WARNINGS: ReadonlySet<string> = new Set(['mode_not_covered', 'not_adapted']);

/** A warning, marked as one (⚠ and its code), in the block of its language. */
function warningNode(text: string, w: PublicWarning | undefined, cls: string): HTMLElement {
  const node = el('p', w ? `${cls} profile-warning` : cls, text);
  if (w) {
    node.dataset.code = w.code;
    if (w.mode) node.dataset.mode = w.mode;
  }
  return node;
}

/**
 * One language of a profile: its texts and length range, its warnings, what adapting did, and a table
 * of the three modes. An adapted language is decided on the adapted score where the profile covers
 * the text, so its table shows the bars on that score and what each catches of the AI examples.
 */
function languageBlock(code: ModelLang, language: PublicLanguage, warnings: PublicWarning[], lang: UiLang): HTMLElement {
  const block = el('div', 'profile-lang');
  block.dataset.lang = code;
  block.appendChild(el('p', 'profile-lang-line', languageLine(code, language, lang)));
  for (const w of warnings.filter((x) => x.code === 'mode_not_covered'))
    block.appendChild(warningNode(warningText(w, lang), w, 'profile-mode-warning'));
  const notAdapted = warnings.find((x) => x.code === 'not_adapted');
  const adaptation = adaptationText(language, notAdapted, lang);
  const line = warningNode(adaptation.text, adaptation.state === 'not-adapted' ? notAdapted : undefined, 'profile-adaptation');
  line.dataset.state = adaptation.state;
  block.dataset.adapted = String(adaptation.state === 'adapted');
  block.appendChild(line);
  // What was checked of the AI examples, and a mode that decides without the adaptation (issue 43 item 4).
  for (const w of warnings.filter((x) => !BLOCK_WARNINGS.has(x.code)))
    block.appendChild(warningNode(warningText(w, lang), w, 'profile-examples-warning'));
  const adapted = language.adaptation;
  const modes: Record<Sensitivity, PublicMode | AdaptedMode> = adapted ? adapted.modes : language.modes;
  // The threshold as a score when the server sends one; otherwise the decision variable itself, named as such.
  const showScore = SENSITIVITIES.every((s) => modes[s].thresholdLogit === null || modes[s].thresholdScore != null);
  const heads: StringKey[] = ['colMode', showScore ? 'colThreshold' : 'colThresholdLogit', 'colOwnFlagged', 'colUpperBound'];
  if (adapted) heads.push('colAiCaught');
  const table = el('table', 'profile-modes');
  const head = el('tr');
  for (const key of heads) {
    const th = el('th', key === 'colMode' ? '' : 'num', tr(lang, key));
    th.scope = 'col';
    head.appendChild(th);
  }
  const thead = el('thead');
  thead.appendChild(head);
  const tbody = el('tbody');
  tbody.append(...SENSITIVITIES.map((s) => modeRow(s, modes[s], lang, showScore, heads.length, adapted?.aiTexts ?? 0)));
  table.append(thead, tbody);
  const wrap = el('div', 'table-wrap');
  wrap.appendChild(table);
  block.appendChild(wrap);
  if (adapted) block.appendChild(el('p', 'hint adapted-help', tr(lang, 'adaptedTableHelp')));
  if (!showScore) block.appendChild(el('p', 'hint threshold-help', tr(lang, 'thresholdLogitHelp')));
  const others = otherWritersBlock(language, lang);
  if (others) block.appendChild(others);
  return block;
}

/** What a profile card's buttons do. */
export interface ProfileActions {
  use(profile: PublicProfile): void;
  remove(profile: PublicProfile): void;
}

/** One profile: name, when and with which model it was made, duplicates left out, its languages, and its buttons. */
function profileCard(profile: PublicProfile, chosen: boolean, lang: UiLang, actions: ProfileActions): HTMLElement {
  const card = el('article', chosen ? 'profile chosen' : 'profile');
  card.dataset.id = profile.id;
  card.appendChild(el('h4', 'profile-name', profile.name));
  const date = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(profile.createdAt));
  card.appendChild(el('p', 'hint', tr(lang, 'profileMeta', { date, model: profile.modelVersion })));
  if (profile.stale) card.appendChild(el('p', 'profile-stale', tr(lang, 'profileStale')));
  const { human, ai } = profile.duplicates;
  if (human + ai > 0) {
    const dup = el('p', 'hint profile-duplicates', tr(lang, 'profileDuplicates', { human, ai }));
    dup.dataset.human = String(human);
    dup.dataset.ai = String(ai);
    card.appendChild(dup);
  }
  // Not of one language: a text given both as human and as AI (issue 45 item 6).
  for (const w of profile.warnings.filter((x) => x.code === 'labelling_conflict'))
    card.appendChild(warningNode(warningText(w, lang), w, 'profile-conflict'));
  for (const code of MODEL_LANGS) {
    const language = profile.languages[code];
    const warnings = profile.warnings.filter((w) => w.language === code);
    if (language) card.appendChild(languageBlock(code, language, warnings, lang));
  }
  const buttons = el('div', 'profile-actions');
  const use = el('button', chosen ? 'use' : 'use primary', tr(lang, chosen ? 'inUse' : 'useProfile'));
  use.type = 'button';
  use.setAttribute('aria-pressed', String(chosen));
  use.addEventListener('click', () => actions.use(profile));
  const remove = el('button', 'remove', tr(lang, 'deleteProfile'));
  remove.type = 'button';
  remove.addEventListener('click', () => actions.remove(profile));
  buttons.append(use, remove);
  card.appendChild(buttons);
  return card;
}

/** Shows the key's profiles in `list` (or why there are none). */
export function renderProfiles(
  list: HTMLElement,
  profiles: PublicProfile[] | null,
  chosenId: string,
  lang: UiLang,
  actions: ProfileActions,
): void {
  if (profiles === null) {
    list.replaceChildren(el('p', 'hint', tr(lang, 'profilesNeedKey')));
    return;
  }
  if (profiles.length === 0) {
    list.replaceChildren(el('p', 'hint', tr(lang, 'profilesEmpty')));
    return;
  }
  list.replaceChildren(...profiles.map((p) => profileCard(p, p.id === chosenId, lang, actions)));
}
