/** Renders one single-mode result: gauge, AI share, verdict, annotated text, dimensions and bullets. */
import { rangeFor, renderAnnotated, renderLegend, type TextPiece } from './annotated.ts';
import type { DetectResult } from './api.ts';
import { byId, el } from './dom.ts';
import { tr, type UiLang } from './strings.ts';
import { formatShare, paintVerdict, showsPassages } from './verdict.ts';

/** Name of the CSS custom highlight that marks the passage of a clicked bullet. */
export const PASSAGE_HIGHLIGHT = 'passage';

/** Score bands of the gauge colour; the number is always shown too, colour is never alone. */
const GAUGE_BANDS = [
  { min: 70, cls: 'high' },
  { min: 40, cls: 'mid' },
  { min: 0, cls: 'low' },
] as const;

function renderGauge(score: number): void {
  const clamped = Math.max(0, Math.min(100, Math.round(score)));
  const gauge = byId('gauge');
  gauge.setAttribute('aria-valuenow', String(clamped));
  gauge.setAttribute('aria-valuetext', `${clamped}/100`);
  gauge.dataset.band = GAUGE_BANDS.find((b) => clamped >= b.min)!.cls;
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
    CSS.highlights.set(PASSAGE_HIGHLIGHT, new Highlight(range));
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
  renderGauge(result.score);
  paintVerdict(byId('verdict'), result.verdictKey, result.verdict);
  byId('verdict-hint').textContent = tr(lang, `verdictHint_${result.verdictKey}`);
  byId('ai-share').textContent = showsPassages(result.verdictKey) ? formatShare(result.aiShare, lang) : '—';
  byId('doc-type').textContent = result.docTypeLabel;
  const nf = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
  byId('ms-cost').textContent = tr(lang, 'msUnit', { n: nf.format(result.ms_cost) });
  const remaining = headers.get('X-RateLimit-Remaining') ?? result.rate_remaining;
  byId('words-remaining').textContent = remaining == null ? '—' : nf.format(Number(remaining));
  const annotated = byId('annotated');
  const pieces = renderAnnotated(annotated, text, result, lang);
  if (result.textAnnotations.length === 0) annotated.appendChild(el('p', 'hint', tr(lang, 'noFlags')));
  renderLegend(byId('legend'), result, lang);
  renderDimensions(result, lang);
  renderBullets(result, pieces, lang);
  byId('result').hidden = false;
}
