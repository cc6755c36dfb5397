/**
 * The Calibration tab (issue 34): make a profile from known-human files, list and delete the key's
 * profiles, show each one's numbers (texts per language; per mode the threshold, the share of its own
 * texts it flags with n, and the 95% upper bound), and say in words whether a detection used it.
 * The profile chosen here is sent as `calibration` by the Text and Files tabs (app.ts); the verdict,
 * gauge and bullets stay the answer's own, so they follow the profile's threshold when it applied.
 */
import { MIN_WORDS, MODEL_LANGS, SENSITIVITIES, type ModelLang, type Sensitivity } from '../contract/index.ts';
import type {
  CalibrationProfile,
  ProfileLanguage,
  ProfileModeThreshold,
  ProfileUse,
  MIN_PROFILE_TEXTS as SERVER_MIN_PROFILE_TEXTS,
} from '../detector/decide/profile.ts';
import { ApiError, headersFor, toApiError } from './api.ts';
import { el } from './dom.ts';
import { tr, type StringKey, type UiLang } from './strings.ts';

/** Path of the calibration profiles, same origin as the page. */
export const CALIBRATIONS_PATH = '/v1/calibrations';
/**
 * Usable texts a language needs in a profile, quoted before a profile is made. The page may not load
 * the detector, so the number is written here, typed as the detector's own literal: if
 * src/detector/decide/profile.ts changes it, this line stops compiling.
 */
export const MIN_PROFILE_TEXTS: typeof SERVER_MIN_PROFILE_TEXTS = 50;

/** One mode of a profile as the API returns it (`thresholdScore`, when sent, is the threshold on the 0-100 scale). */
export type PublicMode = ProfileModeThreshold & { thresholdScore?: number | null };
/** One language of a profile as the API returns it: its numbers, never the scores of its texts. */
export type PublicLanguage = Omit<ProfileLanguage, 'samples' | 'modes' | 'words'> & {
  modes: Record<Sensitivity, PublicMode>;
  /** The covered length range; null (or max 0) when no length has enough texts. */
  words: ProfileLanguage['words'] | null;
};
/** A profile as GET/POST /v1/calibrations return it. */
export type PublicProfile = Omit<CalibrationProfile, 'format' | 'id' | 'languages'> & {
  id: string;
  /** True when the profile was made with another model: detections fall back to the default thresholds. */
  stale?: boolean;
  languages: Partial<Record<ModelLang, PublicLanguage>>;
  /** Only in the answer that made it: texts or files not used (under 20 words, or unreadable). */
  skipped?: number;
};
/** What an answer made with a profile says about it (`calibration`). */
export type CalibrationUse = ProfileUse;

async function send(url: string, init: RequestInit): Promise<Response> {
  const res = await fetch(url, init);
  if (!res.ok) throw await toApiError(res);
  return res;
}

/** Makes a profile from `files` (multipart `files[]` + `name`); resolves with it, or rejects with ApiError. */
export async function createProfile(key: string, lang: UiLang, name: string, files: File[]): Promise<PublicProfile> {
  const form = new FormData();
  form.append('name', name);
  for (const f of files) form.append('files[]', f, f.name);
  const res = await send(CALIBRATIONS_PATH, { method: 'POST', headers: headersFor(key, lang), body: form });
  return (await res.json()) as PublicProfile;
}

/** The key's profiles, newest first. */
export async function listProfiles(key: string, lang: UiLang): Promise<PublicProfile[]> {
  const body = (await (await send(CALIBRATIONS_PATH, { headers: headersFor(key, lang) })).json()) as
    | PublicProfile[]
    | { calibrations?: PublicProfile[]; data?: PublicProfile[] };
  const list = Array.isArray(body) ? body : (body.calibrations ?? body.data ?? []);
  return [...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Deletes one of the key's profiles. */
export async function deleteProfile(key: string, lang: UiLang, id: string): Promise<void> {
  await send(`${CALIBRATIONS_PATH}/${encodeURIComponent(id)}`, { method: 'DELETE', headers: headersFor(key, lang) });
}

/** A share (0 to 1) as a percentage with at most one decimal ("1.3%", "1,3 %"): small rates need the decimal. */
export function formatRate(share: number, lang: UiLang): string {
  return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }).format(share);
}

/**
 * The page's words for a too-small set when the answer carried no message (the server's own, in the
 * page's language, names the language, its count and the minimum); null for any other error.
 */
export function describeCalibrationError(err: unknown, lang: UiLang): string | null {
  const tooSmall = err instanceof ApiError && (err.code === 'calibration_too_small' || err.code === 'calibration_empty');
  return tooSmall && !err.message ? tr(lang, 'errCalibrationTooSmall', { min: MIN_PROFILE_TEXTS, words: MIN_WORDS }) : null;
}

/** What the answer's `calibration` means for this text, in one sentence of the interface language. */
export function calibrationLine(use: CalibrationUse, docTypeLabel: string, lang: UiLang): string {
  if (use.applied) return tr(lang, 'calibrationApplied', { name: use.name });
  const reasonKey = (use.reason ? `reason_${use.reason}` : 'reason_unknown') as StringKey;
  const reason = tr(lang, reasonKey, { docType: docTypeLabel });
  return tr(lang, 'calibrationNotApplied', { name: use.name, reason });
}

/** The same in a few words, for a table row (the Files tab): applied, or not and the short reason. */
export function calibrationNote(use: CalibrationUse, lang: UiLang): string {
  if (use.applied) return tr(lang, 'calNoteApplied', { name: use.name });
  const why = tr(lang, (use.reason ? `why_${use.reason}` : 'why_unknown') as StringKey);
  return tr(lang, 'calNoteNotApplied', { name: use.name, why });
}

/** Fills the result's calibration line under the verdict (hidden when the detection used no profile). */
export function renderCalibrationLine(
  target: HTMLElement,
  use: CalibrationUse | null | undefined,
  docTypeLabel: string,
  lang: UiLang,
): void {
  target.hidden = !use;
  if (!use) return;
  target.textContent = calibrationLine(use, docTypeLabel, lang);
  target.dataset.applied = String(use.applied);
  target.dataset.reason = use.reason ?? '';
}

/** One row of a language's modes table: the threshold, its own texts flagged (k of n, rate) and the upper bound. */
function modeRow(mode: Sensitivity, m: PublicMode, lang: UiLang, showScore: boolean): HTMLTableRowElement {
  const row = el('tr');
  row.dataset.mode = mode;
  const head = el('th', '', tr(lang, `mode_${mode}`));
  head.scope = 'row';
  row.appendChild(head);
  if (m.thresholdLogit === null) {
    const td = el('td', 'mode-default', tr(lang, 'modeDefault'));
    td.colSpan = 3;
    row.appendChild(td);
    return row;
  }
  const nf = new Intl.NumberFormat(lang, { maximumFractionDigits: showScore ? 0 : 2 });
  const threshold = showScore && m.thresholdScore != null ? m.thresholdScore : m.thresholdLogit;
  const flagged = tr(lang, 'ownFlagged', { k: nf.format(m.flagged), n: nf.format(m.texts), rate: formatRate(m.rate, lang) });
  const cells = [
    el('td', 'num threshold', nf.format(threshold)),
    el('td', 'num flagged', flagged),
    el('td', 'num bound', formatRate(m.upperBound, lang)),
  ];
  // The column's name, shown before the value where the table is laid out as one block per mode (narrow screens).
  const labels = [showScore ? 'colThreshold' : 'colThresholdLogit', 'colOwnFlagged', 'colUpperBound'] as const;
  cells.forEach((td, i) => {
    td.dataset.label = tr(lang, labels[i]);
  });
  cells[1].dataset.flagged = String(m.flagged);
  cells[1].dataset.texts = String(m.texts);
  cells[2].dataset.bound = String(m.upperBound);
  row.append(...cells);
  return row;
}

/** One language of a profile: its texts and length range, and a table of the three modes. */
function languageBlock(code: ModelLang, language: PublicLanguage, lang: UiLang): HTMLElement {
  const block = el('div', 'profile-lang');
  block.dataset.lang = code;
  const nf = new Intl.NumberFormat(lang);
  const vars = { lang: tr(lang, `lang_${code}`), n: nf.format(language.texts) };
  const words = language.words;
  // null (or {min: 0, max: 0}): no length bucket had enough texts, so the profile covers no length.
  const line =
    words === null || words.max === 0
      ? tr(lang, 'profileLangNoLength', vars)
      : words.max === null
        ? tr(lang, 'profileLangOpen', { ...vars, min: nf.format(words.min) })
        : tr(lang, 'profileLang', { ...vars, min: nf.format(words.min), max: nf.format(words.max) });
  block.appendChild(el('p', 'profile-lang-line', line));
  // The threshold as a score when the server sends one; otherwise the decision variable itself, named as such.
  const showScore = SENSITIVITIES.every((s) => language.modes[s].thresholdLogit === null || language.modes[s].thresholdScore != null);
  const table = el('table', 'profile-modes');
  const head = el('tr');
  for (const key of ['colMode', showScore ? 'colThreshold' : 'colThresholdLogit', 'colOwnFlagged', 'colUpperBound'] as const) {
    const th = el('th', key === 'colMode' ? '' : 'num', tr(lang, key));
    th.scope = 'col';
    head.appendChild(th);
  }
  const thead = el('thead');
  thead.appendChild(head);
  const tbody = el('tbody');
  tbody.append(...SENSITIVITIES.map((s) => modeRow(s, language.modes[s], lang, showScore)));
  table.append(thead, tbody);
  const wrap = el('div', 'table-wrap');
  wrap.appendChild(table);
  block.appendChild(wrap);
  if (!showScore) block.appendChild(el('p', 'hint threshold-help', tr(lang, 'thresholdLogitHelp')));
  return block;
}

/** What a profile card's buttons do. */
export interface ProfileActions {
  use(profile: PublicProfile): void;
  remove(profile: PublicProfile): void;
}

/** One profile: name, when and with which model it was made, its languages, and its buttons. */
function profileCard(profile: PublicProfile, chosen: boolean, lang: UiLang, actions: ProfileActions): HTMLElement {
  const card = el('article', chosen ? 'profile chosen' : 'profile');
  card.dataset.id = profile.id;
  card.appendChild(el('h4', 'profile-name', profile.name));
  const date = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(profile.createdAt));
  card.appendChild(el('p', 'hint', tr(lang, 'profileMeta', { date, model: profile.modelVersion })));
  if (profile.stale) card.appendChild(el('p', 'profile-stale', tr(lang, 'profileStale')));
  for (const code of MODEL_LANGS) {
    const language = profile.languages[code];
    if (language) card.appendChild(languageBlock(code, language, lang));
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

/** Fills the settings' profile choice: "none" and the key's profiles (a chosen one that is gone falls back to none). */
export function renderChoice(select: HTMLSelectElement, profiles: PublicProfile[] | null, chosenId: string, lang: UiLang): void {
  const none = el('option', '', tr(lang, 'calibrationNone'));
  none.value = '';
  const options = (profiles ?? []).map((p) => {
    const option = el('option', '', p.stale ? `${p.name} (${tr(lang, 'profileStaleShort')})` : p.name);
    option.value = p.id;
    return option;
  });
  select.replaceChildren(none, ...options);
  select.value = options.some((o) => o.value === chosenId) ? chosenId : '';
}
