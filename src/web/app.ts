/** Entry point of the playground page: settings, language, tabs, text analysis, the Files and Calibration tabs. */
import { ApiError, describeError, detectText, fetchUsage, usageText, type DetectResult } from './api.ts';
import { downloadCsv, relabelBatch, runBatch, toCsv, type BatchRow } from './batch.ts';
import { wireCalibration } from './calibration-tab.ts';
import { splitFiles, wireDrop } from './files.ts';
import { renderResult, wireTooltipDismiss } from './result.ts';
import { STRINGS, tr, type StringKey, type UiLang } from './strings.ts';
import { countWords, MIN_WORDS } from './words.ts';

/** sessionStorage key of the API key (never localStorage: it must not outlive the tab). */
const KEY_STORAGE = 'playground.apiKey';
/** localStorage key of the chosen interface language. */
const LANG_STORAGE = 'playground.lang';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const keyInput = $<HTMLInputElement>('api-key');
const sensitivity = $<HTMLSelectElement>('sensitivity');
const textArea = $<HTMLTextAreaElement>('text');
const analyzeButton = $<HTMLButtonElement>('analyze');
const fileInput = $<HTMLInputElement>('files');
const filesButton = $<HTMLButtonElement>('analyze-files');
const csvButton = $<HTMLButtonElement>('download-csv');

let lang: UiLang = initialLang();
/** The result on screen: what it answered (text, sensitivity, profile) and the language its server-written parts are in. */
let lastResult: { text: string; sensitivity: string; calibration: string; lang: UiLang; data: DetectResult; headers: Headers } | null =
  null;
let chosenFiles: File[] = [];
/** Files the picker or a drop offered that the page does not send (not TXT, MD, DOCX or PDF by name). */
let refusedFiles: File[] = [];
let batchRows: BatchRow[] = [];
/** The Calibration tab and the profile the detections name (calibration-tab.ts). */
const calibration = wireCalibration({
  key: () => keyInput.value.trim(),
  lang: () => lang,
  onChoice: () => markStale(),
  // Making a profile charges its words: the words-left line says so at once (issue 39).
  onCharged: () => void refreshUsage(),
});
let busy = false;

function initialLang(): UiLang {
  const saved = localStorage.getItem(LANG_STORAGE);
  if (saved === 'en' || saved === 'es') return saved;
  return navigator.language.toLowerCase().startsWith('es') ? 'es' : 'en';
}

function showError(boxId: string, err: unknown): void {
  const box = $(boxId);
  box.textContent = describeError(err, lang);
  box.dataset.code = err instanceof ApiError ? err.code : 'client_error';
  box.hidden = false;
  // 401: the fix is in the key field, so take the keyboard user there.
  if (err instanceof ApiError && err.status === 401) keyInput.focus();
}

/** Refreshes the usage line from GET /v1/usage (not charged); hidden while there is no valid key. */
async function refreshUsage(): Promise<void> {
  const line = $('usage-line');
  const key = keyInput.value.trim();
  if (!key) {
    line.hidden = true;
    return;
  }
  try {
    const usage = await fetchUsage(key, lang);
    // The key may have changed while the answer was on its way.
    if (keyInput.value.trim() !== key) return;
    line.textContent = usageText(usage, lang);
    line.dataset.remaining = String(usage.words.remaining);
    line.hidden = false;
  } catch {
    line.hidden = true;
  }
}

function clearError(boxId: string): void {
  const box = $(boxId);
  box.hidden = true;
  box.textContent = '';
}

function updateWordCount(): void {
  const n = countWords(textArea.value);
  const out = $('word-count');
  out.textContent = n >= MIN_WORDS ? tr(lang, 'wordsCount', { n }) : tr(lang, 'wordsNeeded', { n, k: MIN_WORDS - n, min: MIN_WORDS });
  out.dataset.words = String(n);
  analyzeButton.disabled = busy || n < MIN_WORDS;
}

/** Keeps the files the page may send and remembers the others, to name them. */
function chooseFiles(files: File[]): void {
  ({ taken: chosenFiles, refused: refusedFiles } = splitFiles(files));
  renderFileList();
}

/** The note of each reason a result no longer answers the page (markStale). */
const STALE_NOTES: Record<string, StringKey | null> = {
  '': null,
  text: 'staleNote',
  settings: 'staleSettingsNote',
  'text-settings': 'staleTextSettingsNote',
  lang: 'staleLangNote',
};

/**
 * Dims the result when it no longer answers what is on screen, and says why: the text, or the
 * settings (the sensitivity or the calibration profile; issue 39: a changed setting was said to be a
 * changed text), or the page's language (issue 32: the verdict, the reasons and the measured error are
 * the server's words, in the language they were asked in; asking again would charge the words again,
 * so the page says so instead of doing it behind the user's back).
 */
function markStale(): void {
  const text = lastResult !== null && textArea.value !== lastResult.text;
  const settings = lastResult !== null && (sensitivity.value !== lastResult.sensitivity || calibration.chosen() !== lastResult.calibration);
  const otherLang = lastResult !== null && lastResult.lang !== lang;
  const reason = text && settings ? 'text-settings' : text ? 'text' : settings ? 'settings' : otherLang ? 'lang' : '';
  const note = $('stale-note');
  $('result').classList.toggle('stale', reason !== '');
  note.hidden = reason === '';
  note.dataset.reason = reason;
  const key = STALE_NOTES[reason];
  note.textContent =
    key === 'staleLangNote' ? tr(lang, key, { language: tr(lang, `langName_${lastResult!.lang}`) }) : key ? tr(lang, key) : '';
}

function renderFileList(): void {
  const list = $('file-list');
  list.replaceChildren(
    ...chosenFiles.map((f) => {
      const li = document.createElement('li');
      li.textContent = f.name;
      return li;
    }),
  );
  $('file-summary').textContent = chosenFiles.length ? tr(lang, 'filesChosen', { n: chosenFiles.length }) : '';
  const refused = $('file-refused');
  refused.textContent = refusedFiles.length ? tr(lang, 'filesRefused', { names: refusedFiles.map((f) => f.name).join(', ') }) : '';
  refused.hidden = refusedFiles.length === 0;
}

/** Applies the interface language to every [data-i18n] element and to dynamic text. */
function applyLang(next: UiLang): void {
  lang = next;
  localStorage.setItem(LANG_STORAGE, lang);
  document.documentElement.lang = lang;
  document.title = STRINGS[lang].title;
  for (const node of document.querySelectorAll<HTMLElement>('[data-i18n]')) {
    node.textContent = tr(lang, node.dataset.i18n as StringKey);
  }
  $<HTMLInputElement>(`lang-${lang}`).checked = true;
  $('main').setAttribute('aria-label', STRINGS[lang].title);
  document
    .querySelector('[role="tablist"]')!
    .setAttribute('aria-label', `${tr(lang, 'tabText')} / ${tr(lang, 'tabFiles')} / ${tr(lang, 'tabCalibration')}`);
  updateWordCount();
  renderFileList();
  calibration.applyLang();
  void refreshUsage();
  if (lastResult) renderResult(lastResult.text, lastResult.data, lastResult.headers, lang, lastResult.lang);
  markStale();
  relabelBatch(lang);
}

function selectTab(tab: HTMLElement, focus: boolean): void {
  for (const t of document.querySelectorAll<HTMLElement>('[role="tab"]')) {
    const on = t === tab;
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
    $(t.getAttribute('aria-controls')!).hidden = !on;
  }
  // Profiles may have been made elsewhere meanwhile (another tab, `bun run calibrate --key-id`).
  if (tab.id === 'tab-calibration') void calibration.refresh();
  if (focus) tab.focus();
}

function wireTabs(): void {
  const tabs = [...document.querySelectorAll<HTMLElement>('[role="tab"]')];
  for (const [i, tab] of tabs.entries()) {
    tab.addEventListener('click', () => selectTab(tab, false));
    // WAI-ARIA tabs pattern: arrows move between tabs, Home/End jump to the ends.
    tab.addEventListener('keydown', (e) => {
      const moves: Record<string, number> = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 };
      if (!(e.key in moves)) return;
      e.preventDefault();
      selectTab(tabs[(moves[e.key] + tabs.length) % tabs.length], true);
    });
  }
}

async function analyzeText(e: Event): Promise<void> {
  e.preventDefault();
  if (countWords(textArea.value) < MIN_WORDS || busy) return;
  clearError('text-error');
  busy = true;
  analyzeButton.textContent = tr(lang, 'analyzing');
  updateWordCount();
  try {
    const text = textArea.value;
    const profile = calibration.chosen();
    const { data, headers } = await detectText(keyInput.value.trim(), lang, text, sensitivity.value, profile);
    lastResult = { text, sensitivity: sensitivity.value, calibration: profile, lang, data, headers };
    renderResult(text, data, headers, lang);
    markStale();
    $('result-heading').focus({ preventScroll: true });
  } catch (err) {
    // A result left on screen under an error would read as the answer to this request.
    $('result').hidden = true;
    lastResult = null;
    markStale();
    showError('text-error', err);
  } finally {
    busy = false;
    analyzeButton.textContent = tr(lang, 'analyze');
    updateWordCount();
    void refreshUsage();
  }
}

async function analyzeFiles(e: Event): Promise<void> {
  e.preventDefault();
  clearError('files-error');
  if (chosenFiles.length === 0) return showError('files-error', new ApiError(0, 'no_files', tr(lang, 'errNoFiles'), new Headers()));
  filesButton.disabled = true;
  csvButton.disabled = true;
  try {
    batchRows = await runBatch(chosenFiles, {
      key: () => keyInput.value.trim(),
      lang: () => lang,
      sensitivity: () => sensitivity.value,
      calibration: () => calibration.chosen(),
    });
    csvButton.disabled = batchRows.length === 0;
  } catch (err) {
    showError('files-error', err);
  } finally {
    filesButton.disabled = false;
    void refreshUsage();
  }
}

function wireFiles(): void {
  wireDrop($('drop-zone'), fileInput, chooseFiles);
  // A file dropped beside the zone would make the browser navigate away from the page.
  for (const type of ['dragover', 'drop']) window.addEventListener(type, (e) => e.preventDefault());
  $('files-form').addEventListener('submit', analyzeFiles);
  csvButton.addEventListener('click', () => downloadCsv(toCsv(batchRows)));
}

function main(): void {
  keyInput.value = sessionStorage.getItem(KEY_STORAGE) ?? '';
  keyInput.addEventListener('input', () => sessionStorage.setItem(KEY_STORAGE, keyInput.value));
  keyInput.addEventListener('change', () => {
    void refreshUsage();
    void calibration.refresh();
  });
  textArea.addEventListener('input', () => {
    updateWordCount();
    markStale();
  });
  sensitivity.addEventListener('change', markStale);
  $('text-form').addEventListener('submit', analyzeText);
  for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="lang"]')) {
    radio.addEventListener('change', () => radio.checked && applyLang(radio.value as UiLang));
  }
  $('result-heading').tabIndex = -1;
  wireTabs();
  wireFiles();
  wireTooltipDismiss();
  applyLang(lang);
  void calibration.refresh();
}

main();
