/** Renders one single-mode result: gauge, facts, annotated text, dimensions and bullets. */
import type { DetectResult } from './api.ts';
import { tr, type UiLang } from './strings.ts';

/** Name of the CSS custom highlight that marks the passage of a clicked bullet. */
export const PASSAGE_HIGHLIGHT = 'passage';

/** Score bands of the gauge colour; the number is always shown too, colour is never alone. */
const GAUGE_BANDS = [
  { min: 70, cls: 'high' },
  { min: 40, cls: 'mid' },
  { min: 0, cls: 'low' },
] as const;

/** One text node of the annotated view and the offset of its first character in the text. */
interface TextPiece {
  node: Text;
  start: number;
}

function byId<T extends HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function renderGauge(score: number): void {
  const clamped = Math.max(0, Math.min(100, Math.round(score)));
  const gauge = byId('gauge');
  gauge.setAttribute('aria-valuenow', String(clamped));
  gauge.setAttribute('aria-valuetext', `${clamped}/100`);
  gauge.dataset.band = GAUGE_BANDS.find((b) => clamped >= b.min)!.cls;
  byId('gauge-arc').setAttribute('stroke-dasharray', `${clamped} 100`);
  byId('gauge-score').textContent = String(clamped);
}

/** Fills `container` with the text, flagged sentences wrapped in focusable marks; returns the text pieces. */
function renderAnnotated(container: HTMLElement, text: string, result: DetectResult, lang: UiLang): TextPiece[] {
  container.replaceChildren();
  const pieces: TextPiece[] = [];
  const addText = (parent: Node, start: number, end: number) => {
    if (end <= start) return;
    const node = document.createTextNode(text.slice(start, end));
    parent.appendChild(node);
    pieces.push({ node, start });
  };
  const sorted = [...result.textAnnotations].sort((a, b) => a.start - b.start);
  let cursor = 0;
  sorted.forEach((ann, i) => {
    const start = Math.max(ann.start, cursor);
    const end = Math.min(ann.end, text.length);
    if (end <= start) return; // overlapping or out-of-range span: keep the text, skip the mark
    addText(container, cursor, start);
    const mark = el('mark', 'flag');
    mark.tabIndex = 0;
    mark.dataset.dims = ann.dims.map((d) => d.id).join(' ');
    addText(mark, start, end);
    const tip = el('span', 'tip', tr(lang, 'flaggedBy', { dims: ann.dims.map((d) => d.label).join(', ') }));
    tip.id = `flag-tip-${i}`;
    tip.setAttribute('role', 'tooltip');
    mark.setAttribute('aria-describedby', tip.id);
    mark.appendChild(tip);
    for (const type of ['blur', 'mouseleave']) mark.addEventListener(type, () => mark.classList.remove('quiet'));
    container.appendChild(mark);
    cursor = end;
  });
  addText(container, cursor, text.length);
  return pieces;
}

function renderDimensions(result: DetectResult, lang: UiLang): void {
  byId('active-dims').textContent = tr(lang, 'activeDims', { a: result.activeDimensions, t: result.totalDimensions });
  const list = byId('dimensions');
  list.replaceChildren();
  const ordered = [...result.dimensions].sort((a, b) => Number(b.detected) - Number(a.detected));
  for (const dim of ordered) {
    const item = el('li', dim.detected ? 'dim on' : 'dim off');
    item.dataset.dim = dim.id;
    item.append(el('span', 'dim-icon', dim.detected ? '✔' : '–'), el('span', 'dim-label', dim.label));
    item.append(el('span', 'dim-state', dim.detected ? tr(lang, 'detected') : tr(lang, 'notDetected')));
    list.appendChild(item);
  }
}

/** Maps a [start, end) span of the text to a DOM Range over the annotated view's text pieces. */
function rangeFor(pieces: TextPiece[], start: number, end: number): Range | null {
  const locate = (offset: number, preferNext: boolean) => {
    for (const p of pieces) {
      const len = p.node.data.length;
      if (offset < p.start + len || (!preferNext && offset === p.start + len)) {
        if (offset >= p.start) return { node: p.node, at: offset - p.start };
      }
    }
    return null;
  };
  const a = locate(start, true);
  const b = locate(end, false);
  if (!a || !b) return null;
  const range = document.createRange();
  range.setStart(a.node, a.at);
  range.setEnd(b.node, b.at);
  return range;
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
    item.appendChild(el('p', 'bullet-text', bullet.text));
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
  byId('verdict').textContent = result.verdict;
  byId('doc-type').textContent = result.docTypeLabel;
  const nf = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
  byId('ms-cost').textContent = tr(lang, 'msUnit', { n: nf.format(result.ms_cost) });
  const remaining = headers.get('X-RateLimit-Remaining') ?? result.rate_remaining;
  byId('words-remaining').textContent = remaining == null ? '—' : nf.format(Number(remaining));
  const annotated = byId('annotated');
  const pieces = renderAnnotated(annotated, text, result, lang);
  if (result.textAnnotations.length === 0) annotated.appendChild(el('p', 'hint', tr(lang, 'noFlags')));
  renderDimensions(result, lang);
  renderBullets(result, pieces, lang);
  byId('result').hidden = false;
}
