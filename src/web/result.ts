/** Renders one single-mode result: gauge, AI share, verdict, annotated text, dimensions and bullets. */
import { rangeFor, renderAnnotated, renderLegend, type TextPiece } from './annotated.ts';
import type { DetectResult } from './api.ts';
import { renderCalibrationLine } from './calibration.ts';
import { byId, el } from './dom.ts';
import { tr, type UiLang } from './strings.ts';
import { notMixedNote, paintVerdict, shareText, showsPassages } from './verdict.ts';

/** Name of the CSS custom highlight that marks the passage of a clicked bullet. */
export const PASSAGE_HIGHLIGHT = 'passage';
/** Sentence shades: HEAT_BANDS custom highlights `heat-0` (scores 0-19) to `heat-4` (80-100), styles.css. */
export const HEAT_BANDS = 5;

/** The shade band of a sentence score (0-100). */
export function heatBand(score: number): number {
  return Math.max(0, Math.min(HEAT_BANDS - 1, Math.floor(score / (100 / HEAT_BANDS))));
}

/** Score bands of the gauge colour under an AI verdict; the number is always shown too, colour is never alone. */
const GAUGE_BANDS = [
  { min: 70, cls: 'high' },
  { min: 40, cls: 'mid' },
  { min: 0, cls: 'low' },
] as const;

/**
 * The gauge's colour follows the verdict, never the score alone: red or amber (by score) only for
 * `ai` and `likely_ai`; `mixed` in the AI-passage violet with a label that says so (issue 32: a
 * red 95 beside "Mixed" read as an AI verdict); green for a human-side verdict; grey without a
 * verdict (`inconclusive`), whatever the score.
 */
export function gaugeBand(score: number, verdictKey: DetectResult['verdictKey']): string {
  if (verdictKey === 'inconclusive') return 'none';
  if (verdictKey === 'mixed') return 'mixed';
  if (!showsPassages(verdictKey)) return 'low';
  return GAUGE_BANDS.find((b) => score >= b.min)!.cls;
}

/**
 * Under the gauge, when a profile adapted the score (issue 38): that it did, and the model's own score
 * beside it. The gauge, the verdict and the colour stay on `score`, the adapted score the verdict was
 * decided on, so they never disagree; the model's score is shown, never used. Null otherwise.
 */
export function modelScoreText(calibration: DetectResult['calibration'], lang: UiLang): string | null {
  return calibration?.adapted && calibration.modelScore !== undefined ? tr(lang, 'modelScore', { score: calibration.modelScore }) : null;
}

/** The gauge: the score's number and arc, coloured and labelled by the verdict (gaugeBand), and the model's own score when adapted. */
function renderGauge(result: DetectResult, lang: UiLang): void {
  const { score, verdictKey } = result;
  const clamped = Math.max(0, Math.min(100, Math.round(score)));
  const gauge = byId('gauge');
  const band = gaugeBand(clamped, verdictKey);
  const label = tr(lang, band === 'none' ? 'gaugeNoVerdict' : band === 'mixed' ? 'gaugeMixed' : 'gaugeLabel');
  byId('gauge-label').textContent = label;
  const model = modelScoreText(result.calibration, lang);
  const modelLine = byId('model-score');
  modelLine.textContent = model ?? '';
  modelLine.hidden = model === null;
  gauge.setAttribute('aria-valuenow', String(clamped));
  const said = [`${clamped}/100`, ...(band === 'none' || band === 'mixed' ? [label] : []), ...(model ? [model] : [])];
  gauge.setAttribute('aria-valuetext', said.join(', '));
  gauge.dataset.band = band;
  byId('gauge-arc').setAttribute('stroke-dasharray', `${clamped} 100`);
  byId('gauge-score').textContent = String(clamped);
}

/**
 * What a detected dimension rests on (issue 32: "Detected" beside no reason and no flagged sentence
 * read as a contradiction): its own reason when one is listed, else the sentences flagged with it,
 * else that it was measured over the whole text and flags no sentence.
 */
function dimensionNote(dim: DetectResult['dimensions'][number], result: DetectResult, lang: UiLang): string {
  const bullet = result.bullets.find((b) => b.id === dim.id);
  if (bullet) return bullet.text;
  const flagged = result.textAnnotations.filter((a) => a.dims.some((d) => d.id === dim.id)).length;
  return flagged > 0 ? tr(lang, 'dimFlaggedIn', { n: flagged }) : tr(lang, 'dimWholeText');
}

function renderDimensions(result: DetectResult, lang: UiLang): void {
  byId('active-dims').textContent = tr(lang, 'activeDims', { a: result.activeDimensions, t: result.totalDimensions });
  const list = byId('dimensions');
  list.replaceChildren();
  // Detected first, then not detected, then those that cannot fire for the text's language.
  const rank = (d: DetectResult['dimensions'][number]) => (d.detected ? 0 : d.enabled ? 1 : 2);
  const ordered = [...result.dimensions].sort((a, b) => rank(a) - rank(b));
  for (const dim of ordered) {
    const item = el('li', dim.detected ? 'dim on' : dim.enabled ? 'dim off' : 'dim unavailable');
    item.dataset.dim = dim.id;
    item.append(el('span', 'dim-icon', dim.detected ? '✔' : dim.enabled ? '–' : '∅'), el('span', 'dim-label', dim.label));
    const state = dim.detected ? 'detected' : dim.enabled ? 'notDetected' : 'unavailable';
    const stateEl = el('span', 'dim-state', tr(lang, state));
    item.append(stateEl);
    if (!dim.enabled) stateEl.title = tr(lang, 'unavailableHelp');
    // What a detection rests on, in words beside it.
    if (dim.detected) item.append(el('span', 'dim-note', dimensionNote(dim, result, lang)));
    list.appendChild(item);
  }
  // What "not used" means, said once under the list (not only in a tooltip).
  const unused = byId('dims-unused');
  unused.textContent = `∅ ${tr(lang, 'unavailable')}: ${tr(lang, 'unavailableHelp')}`;
  unused.hidden = !result.dimensions.some((d) => !d.enabled);
}

/** Scrolls to the passage and marks it with the custom highlight (or the selection as a fallback). */
function showPassage(range: Range): void {
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const rect = range.getBoundingClientRect();
  window.scrollTo({ top: window.scrollY + rect.top - window.innerHeight / 3, behavior: reduced ? 'auto' : 'smooth' });
  if ('highlights' in CSS) {
    const passage = new Highlight(range);
    passage.priority = 1; // above the sentence shades
    CSS.highlights.set(PASSAGE_HIGHLIGHT, passage);
  } else {
    const sel = window.getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
  }
}

/**
 * True when a bullet's example stops inside a sentence: the API cuts examples over 200 characters
 * at a word boundary (text.slice(start, end) stays exact), so the page adds the "…" the cut needs.
 */
export function exampleIsCut(text: string, bullet: { end: number }, sentences: readonly { start: number; end: number }[]): boolean {
  const within = sentences.find((s) => s.start < bullet.end && bullet.end < s.end);
  return within !== undefined && text.slice(bullet.end, within.end).trim() !== '';
}

function renderBullets(source: string, result: DetectResult, pieces: TextPiece[], lang: UiLang): void {
  const list = byId('bullets');
  list.replaceChildren();
  if (result.bullets.length === 0) list.appendChild(el('li', 'empty', tr(lang, 'noBullets')));
  for (const bullet of result.bullets) {
    const item = el('li', 'bullet');
    item.dataset.id = bullet.id;
    item.dataset.leaning = bullet.leaning;
    // Which way the finding points, in words (the CSS icon beside it is decoration).
    const text = el('p', 'bullet-text');
    text.append(el('span', 'leaning', tr(lang, `leaning_${bullet.leaning}`)), ' ', bullet.text);
    item.appendChild(text);
    const button = el('button', 'passage');
    button.type = 'button';
    const cut = exampleIsCut(source, bullet, result.sentenceScores);
    button.append(el('span', 'sr-only', `${tr(lang, 'showPassage')}: `), el('q', '', cut ? `${bullet.example}…` : bullet.example));
    button.addEventListener('click', () => {
      const range = rangeFor(pieces, bullet.start, bullet.end);
      if (range) showPassage(range);
    });
    item.appendChild(button);
    list.appendChild(item);
  }
}

/** Shades each sentence by its score (CSS custom highlights over the annotated view's text; no DOM change). */
function renderHeat(pieces: TextPiece[], result: DetectResult): void {
  if (!('highlights' in CSS)) return;
  const bands: Range[][] = Array.from({ length: HEAT_BANDS }, () => []);
  for (const s of result.sentenceScores) {
    const range = rangeFor(pieces, s.start, s.end);
    if (range) bands[heatBand(s.score)].push(range);
  }
  bands.forEach((ranges, b) => CSS.highlights.set(`heat-${b}`, new Highlight(...ranges)));
}

/** Escape hides the open flag tooltips until the pointer or focus leaves (WCAG 1.4.13: dismissible). */
export function wireTooltipDismiss(): void {
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    for (const mark of document.querySelectorAll('mark.flag')) mark.classList.add('quiet');
  });
}

/**
 * Shows a result for `text` in the result section: interface strings in `lang`, the server's words
 * (verdict, document type, measured error, reasons) marked as `answerLang`, the language they were
 * asked in, so a screen reader reads each in its own language while the result is stale.
 */
export function renderResult(text: string, result: DetectResult, headers: Headers, lang: UiLang, answerLang: UiLang = lang): void {
  for (const id of ['verdict', 'doc-type', 'measured-error', 'bullets']) byId(id).lang = answerLang;
  if ('highlights' in CSS) CSS.highlights.delete(PASSAGE_HIGHLIGHT);
  renderGauge(result, lang);
  paintVerdict(byId('verdict'), result.verdictKey, result.verdict);
  byId('verdict-hint').textContent = tr(lang, `verdictHint_${result.verdictKey}`);
  // An adapted score over the model's passages: the server's one line on why they differ (issue 45 item 2), else why not Mixed.
  const notMixed = result.calibration?.note ?? notMixedNote(result, lang);
  byId('mixed-note').textContent = notMixed ?? '';
  byId('mixed-note').hidden = notMixed === null;
  // The measured error beside the verdict, in the server's words (it is asked in the page's language).
  // Left out without a verdict: "flagged 0% of 243 human texts" would reassure about a call not made.
  const measured = byId('measured-error');
  measured.textContent = result.measuredError.text;
  measured.hidden = result.verdictKey === 'inconclusive';
  byId('ai-share').textContent = shareText(result.verdictKey, result.aiShare, lang);
  byId('doc-type').textContent = result.docTypeLabel;
  renderCalibrationLine(byId('calibration-line'), result.calibration, result.docTypeLabel, lang);
  const nf = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
  byId('ms-cost').textContent = tr(lang, 'msUnit', { n: nf.format(result.ms_cost) });
  const remaining = headers.get('X-RateLimit-Remaining') ?? result.rate_remaining;
  byId('words-remaining').textContent = remaining == null ? '—' : nf.format(Number(remaining));
  const annotated = byId('annotated');
  const pieces = renderAnnotated(annotated, text, result, lang);
  if (result.textAnnotations.length === 0) annotated.appendChild(el('p', 'hint', tr(lang, 'noFlags')));
  renderHeat(pieces, result);
  renderLegend(byId('legend'), result, lang);
  renderDimensions(result, lang);
  renderBullets(text, result, pieces, lang);
  byId('result').hidden = false;
}
