/**
 * The Calibration tab's behaviour: the chosen human files, AI examples and name, creating a profile,
 * the key's list of profiles, and the one profile the detections name (the settings' choice, kept for
 * the tab).
 */
import { MIN_WORDS } from '../contract/index.ts';
import { ApiError, describeError } from './api.ts';
import {
  createProfile,
  deleteProfile,
  describeCalibrationError,
  listProfiles,
  MIN_AI_TEXTS,
  MIN_PROFILE_TEXTS,
  renderChoice,
  type PublicProfile,
} from './calibration.ts';
import { byId } from './dom.ts';
import { splitFiles, wireDrop } from './files.ts';
import { renderProfiles } from './profile-view.ts';
import { tr, type UiLang } from './strings.ts';

/** sessionStorage key of the chosen profile's id (with the key: a profile belongs to one key). */
const CHOICE_STORAGE = 'playground.calibration';

/** What the tab needs from the page around it. */
export interface CalibrationContext {
  key(): string;
  lang(): UiLang;
  /** Called when the chosen profile changes (the result on screen may no longer answer it). */
  onChoice(): void;
  /** Called once a request to make a profile has ended, made or not: the key's words left may have changed. */
  onCharged(): void;
}

/** The tab's handle for the page: the chosen profile's id, and the hooks of a key or language change. */
export interface CalibrationTab {
  /** The id of the profile detections should name ('' for none). */
  chosen(): string;
  /** Reloads the key's profiles (after the key changes). */
  refresh(): Promise<void>;
  /** Redraws the tab in the interface language. */
  applyLang(): void;
}

/** Wires the Calibration tab and the settings' profile choice. */
export function wireCalibration(ctx: CalibrationContext): CalibrationTab {
  const select = byId<HTMLSelectElement>('calibration');
  const nameInput = byId<HTMLInputElement>('calibration-name');
  const fileInput = byId<HTMLInputElement>('calibration-files');
  const aiInput = byId<HTMLInputElement>('calibration-ai-files');
  const createButton = byId<HTMLButtonElement>('create-profile');
  const errorBox = byId('calibration-error');
  const status = byId('calibration-status');
  let profiles: PublicProfile[] | null = null;
  let files: File[] = [];
  let refused: File[] = [];
  /** AI examples (issue 38): optional, sent as `aiFiles[]`. */
  let aiFiles: File[] = [];
  let aiRefused: File[] = [];
  let chosenId = sessionStorage.getItem(CHOICE_STORAGE) ?? '';
  let busy = false;
  /** The last creation's outcome, kept as data so a language switch says it again in the new language. */
  let created: Pick<PublicProfile, 'name' | 'skipped' | 'skippedFiles' | 'warnings'> | null = null;

  const showError = (err: unknown) => {
    const lang = ctx.lang();
    errorBox.textContent = describeCalibrationError(err, lang) ?? describeError(err, lang);
    errorBox.dataset.code = err instanceof ApiError ? err.code : 'client_error';
    errorBox.hidden = false;
  };
  const clearError = () => {
    errorBox.hidden = true;
    errorBox.textContent = '';
    delete errorBox.dataset.code;
  };

  const choose = (id: string) => {
    chosenId = id;
    sessionStorage.setItem(CHOICE_STORAGE, id);
    draw();
    ctx.onChoice();
  };

  const actions = {
    use: (p: PublicProfile) => choose(p.id),
    remove: async (p: PublicProfile) => {
      if (!window.confirm(tr(ctx.lang(), 'deleteConfirm', { name: p.name }))) return;
      clearError();
      try {
        await deleteProfile(ctx.key(), ctx.lang(), p.id);
        profiles = (profiles ?? []).filter((q) => q.id !== p.id);
        if (chosenId === p.id) choose('');
        else draw();
      } catch (err) {
        showError(err);
      }
    },
  };

  /** One picker's lines: how many files it will send, and the ones it left out by name. */
  function drawPicker(prefix: string, taken: File[], left: File[]): void {
    const lang = ctx.lang();
    byId(`${prefix}-summary`).textContent = taken.length ? tr(lang, 'filesChosen', { n: taken.length }) : '';
    const box = byId(`${prefix}-refused`);
    box.textContent = left.length ? tr(lang, 'filesRefused', { names: left.map((f) => f.name).join(', ') }) : '';
    box.hidden = left.length === 0;
  }

  function drawFiles(): void {
    const lang = ctx.lang();
    byId('calibration-needs').textContent = tr(lang, 'calibrationNeeds', { min: MIN_PROFILE_TEXTS, words: MIN_WORDS });
    byId('calibration-ai-help').textContent = tr(lang, 'calibrationAiHelp', { min: MIN_AI_TEXTS });
    drawPicker('calibration', files, refused);
    drawPicker('calibration-ai', aiFiles, aiRefused);
  }

  /** The last creation in words: made, the files it did not use (by name, with the server's reason), and its warnings' count. */
  function drawStatus(): void {
    const lang = ctx.lang();
    if (!created) {
      status.textContent = '';
      return;
    }
    const parts = [tr(lang, 'profileCreated', { name: created.name })];
    const named = created.skippedFiles ?? [];
    if (named.length > 0) {
      // The server's sentences end with a full stop; the list ends with one of its own.
      const list = named.map((f) => tr(lang, 'skippedFile', { name: f.fileName, message: f.message.replace(/\.\s*$/, '') })).join('; ');
      parts.push(tr(lang, 'profileSkippedNamed', { n: named.length, list }));
    } else if ((created.skipped ?? 0) > 0) parts.push(tr(lang, 'profileSkipped', { n: created.skipped! }));
    if (created.warnings.length > 0) parts.push(tr(lang, 'profileWarningsBelow', { n: created.warnings.length }));
    status.textContent = parts.join(' ');
  }

  function draw(): void {
    const lang = ctx.lang();
    renderChoice(select, profiles, chosenId, lang);
    // A chosen profile that is no longer the key's is forgotten, so no detection names it.
    if (profiles !== null && select.value !== chosenId) {
      chosenId = select.value;
      sessionStorage.setItem(CHOICE_STORAGE, chosenId);
    }
    renderProfiles(byId('profiles'), profiles, chosenId, lang, actions);
    createButton.textContent = tr(lang, busy ? 'creatingProfile' : 'createProfile');
    drawFiles();
    drawStatus();
  }

  async function refresh(): Promise<void> {
    const key = ctx.key();
    if (!key) {
      profiles = null;
      draw();
      return;
    }
    try {
      const list = await listProfiles(key, ctx.lang());
      if (ctx.key() !== key) return; // the key changed while the answer was on its way
      profiles = list;
      clearError();
    } catch (err) {
      profiles = null;
      // A wrong key says so here too; other failures leave the list empty and explain why.
      showError(err);
    }
    draw();
  }

  async function create(e: Event): Promise<void> {
    e.preventDefault();
    if (busy) return;
    clearError();
    created = null;
    drawStatus();
    const lang = ctx.lang();
    const name = nameInput.value.trim();
    if (!name) {
      showError(new ApiError(0, 'no_name', tr(lang, 'errCalibrationNoName'), new Headers()));
      nameInput.focus();
      return;
    }
    if (files.length === 0) return showError(new ApiError(0, 'no_files', tr(lang, 'errNoFiles'), new Headers()));
    busy = true;
    createButton.disabled = true;
    draw();
    try {
      const profile = await createProfile(ctx.key(), lang, name, files, aiFiles);
      profiles = [profile, ...(profiles ?? []).filter((p) => p.id !== profile.id)];
      const { skipped, skippedFiles, warnings } = profile;
      created = { name: profile.name, skipped, skippedFiles, warnings };
      // The form is emptied once it made its profile (issue 39: a second click made, and charged, a second
      // profile of the same name from the same files); making another means choosing files again.
      nameInput.value = '';
      fileInput.value = '';
      aiInput.value = '';
      files = [];
      refused = [];
      aiFiles = [];
      aiRefused = [];
    } catch (err) {
      showError(err);
    } finally {
      busy = false;
      createButton.disabled = false;
      draw();
      ctx.onCharged();
    }
  }

  wireDrop(byId('calibration-drop'), fileInput, (chosen) => {
    ({ taken: files, refused } = splitFiles(chosen));
    drawFiles();
  });
  wireDrop(byId('calibration-ai-drop'), aiInput, (chosen) => {
    ({ taken: aiFiles, refused: aiRefused } = splitFiles(chosen));
    drawFiles();
  });
  byId('calibration-form').addEventListener('submit', create);
  select.addEventListener('change', () => choose(select.value));
  return { chosen: () => chosenId, refresh, applyLang: draw };
}
