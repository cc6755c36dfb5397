/** Renders one single-mode result: gauge, AI share, verdict, annotated text, dimensions and bullets. */
import { rangeFor, renderAnnotated, renderLegend, type TextPiece } from './annotated.ts';
import type { DetectResult } from './api.ts';
import { renderCalibrationLine } from './calibration.ts';
import { byId, el } from './dom.ts';
import { tr, type UiLang } from './strings.ts';
import { formatShare, gaugeBand, paintVerdict, showsPassages } from './verdict.ts';

/** Name of the CSS custom highlight that marks the passage of a clicked bullet. */
export const PASSAGE_HIGHLIGHT = 'passage';
/** Sentence shades: HEAT_BANDS custom highlights `heat-0` (scores 0-19) to `heat-4` (80-100), styles.css. */
export const HEAT_BANDS = 5;

/** The shade band of a sentence score (0-100). */
export function heatBand(score: number): number {
  return Math.max(0, Math.min(HEAT_BANDS - 1, Math.floor(score / (100 / HEAT_BANDS))));
}

/**
 * The gauge: the score's number and arc, coloured by the verdict (verdict.ts gaugeBand), never by the
 * score alone: a site's calibration profile may call a 60 AI, and a 45 must not look amber beside
 * "Human". Without a verdict (`inconclusive`) the arc is grey and the label says so, whatever the score.
 */
function renderGauge(score: number, verdictKey: DetectResult['verdictKey'], lang: UiLang): void {
  const clamped = Math.max(0, Math.min(100, Math.round(score)));
  const gauge = byId('gauge');
  const called = verdictKey !== 'inconclusive';
  const label = tr(lang, called ? 'gaugeLabel' : 'gaugeNoVerdict');
  byId('gauge-label').textContent = label;
  gauge.setAttribute('aria-valuenow', String(clamped));
  gauge.setAttribute('aria-valuetext', called ? `${clamped}/100` : `${clamped}/100, ${label}`);
  gauge.dataset.band = gaugeBand(verdictKey);
  byId('gauge-arc').setAttribute('stroke-dasharray', `${clamped} 100`);
  byId('gauge-score').textContent = String(clamped);
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
    if (!dim.enabled) stateEl.title = tr(lang, 'unavailableHelp');
    item.append(stateEl);
    list.appendChild(item);
  }
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

function renderBullets(result: DetectResult, pieces: TextPiece[], lang: UiLang): void {
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
    button.append(el('span', 'sr-only', `${tr(lang, 'showPassage')}: `), el('q', '', bullet.example));
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

/** Shows a result for `text` in the result section (interface strings in `lang`). */
export function renderResult(text: string, result: DetectResult, headers: Headers, lang: UiLang): void {
  if ('highlights' in CSS) CSS.highlights.delete(PASSAGE_HIGHLIGHT);
  renderGauge(result.score, result.verdictKey, lang);
  paintVerdict(byId('verdict'), result.verdictKey, result.verdict);
  byId('verdict-hint').textContent = tr(lang, `verdictHint_${result.verdictKey}`);
  // The measured error beside the verdict, in the server's words (it is asked in the page's language).
  byId('measured-error').textContent = result.measuredError.text;
  byId('ai-share').textContent = showsPassages(result.verdictKey) ? formatShare(result.aiShare, lang) : '—';
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
  renderBullets(result, pieces, lang);
  byId('result').hidden = false;
}
