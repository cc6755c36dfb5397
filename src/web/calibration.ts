/**
 * The Calibration tab's client (issues 34 and 38): make a profile from known-human files and optional
 * AI examples, list and delete the key's profiles, and say in words whether a detection used one (and
 * adapted its score). The cards that show a profile's numbers are profile-view.ts. The profile chosen
 * here is sent as `calibration` by the Text and Files tabs (app.ts); the verdict, gauge and bullets
 * stay the answer's own, so they follow the profile's threshold (and adapted score) when it applied.
 */
import { MIN_WORDS } from '../contract/index.ts';
import type {
  ProfileUse,
  MIN_AI_TEXTS as SERVER_MIN_AI_TEXTS,
  MIN_PROFILE_TEXTS as SERVER_MIN_PROFILE_TEXTS,
} from '../detector/decide/profile.ts';
import type { CalibrationView } from '../modules/calibrations/model.ts';
import { ApiError, headersFor, toApiError } from './api.ts';
import { el } from './dom.ts';
import { tr, type StringKey, type UiLang } from './strings.ts';

/** Path of the calibration profiles, same origin as the page. */
export const CALIBRATIONS_PATH = '/v1/calibrations';
/**
 * Usable texts a language needs in a profile, and AI examples it needs to be adapted, quoted before a
 * profile is made. The page may not load the detector, so the numbers are written here, typed as the
 * detector's own literals: if src/detector/decide/profile.ts changes one, this stops compiling.
 */
export const MIN_PROFILE_TEXTS: typeof SERVER_MIN_PROFILE_TEXTS = 50;
export const MIN_AI_TEXTS: typeof SERVER_MIN_AI_TEXTS = 50;

/**
 * A profile as GET/POST /v1/calibrations return it (the server's own schema type, erased from the
 * bundle, so the page cannot drift from the contract): per language its numbers and what adapting
 * learned (never a text or a score), the duplicates left out and the warnings.
 */
export type PublicProfile = CalibrationView;
/** One language of a profile. */
export type PublicLanguage = NonNullable<PublicProfile['languages'][keyof PublicProfile['languages']]>;
/** One mode of a language: the bar on the model's score (`thresholdScore`, when sent, on the 0-100 scale). */
export type PublicMode = PublicLanguage['modes']['balanced'];
/** What a language learned from the AI examples. */
export type PublicAdaptation = NonNullable<PublicLanguage['adaptation']>;
/** One mode of an adapted language: the bar on the adapted score and what it catches of the examples. */
export type AdaptedMode = PublicAdaptation['modes']['balanced'];
/** Why a language was not adapted. */
export type PublicNotAdapted = NonNullable<PublicLanguage['notAdapted']>;
/** Something the profile does not cover (`mode_not_covered`) or did not learn (`not_adapted`). */
export type PublicWarning = PublicProfile['warnings'][number];
/** What an answer made with a profile says about it (`calibration`): applied or why not, and whether it adapted the score. */
export type CalibrationUse = ProfileUse;

async function send(url: string, init: RequestInit): Promise<Response> {
  const res = await fetch(url, init);
  if (!res.ok) throw await toApiError(res);
  return res;
}

/**
 * Makes a profile from known-human `files` and optional AI examples `aiFiles` (multipart `files[]`,
 * `aiFiles[]` and `name`); resolves with it, or rejects with ApiError.
 */
export async function createProfile(key: string, lang: UiLang, name: string, files: File[], aiFiles: File[] = []): Promise<PublicProfile> {
  const form = new FormData();
  form.append('name', name);
  for (const f of files) form.append('files[]', f, f.name);
  for (const f of aiFiles) form.append('aiFiles[]', f, f.name);
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
  if (use.applied && use.adapted) return tr(lang, 'calibrationAdapted', { name: use.name });
  if (use.applied) return tr(lang, 'calibrationApplied', { name: use.name });
  const reasonKey = (use.reason ? `reason_${use.reason}` : 'reason_unknown') as StringKey;
  const reason = tr(lang, reasonKey, { docType: docTypeLabel });
  return tr(lang, 'calibrationNotApplied', { name: use.name, reason });
}

/** The same in a few words, for a table row (the Files tab): applied, or not and the short reason. */
export function calibrationNote(use: CalibrationUse, lang: UiLang): string {
  if (use.applied && use.adapted) return tr(lang, 'calNoteAdapted', { name: use.name });
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
  target.dataset.adapted = String(use.adapted === true);
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
