/**
 * The annotated text view: AI-written passages (the response's `segments`) shaded as bands with a
 * visible tag, and the flagged sentences (`textAnnotations`) marked on top of them.
 */
import type { DetectResult } from './api.ts';
import { el } from './dom.ts';
import { tr, type UiLang } from './strings.ts';
import { showsPassages } from './verdict.ts';

/** Score ranges of the sentence shades (result.ts HEAT_BANDS, styles.css .heat-N and ::highlight(heat-N)). */
const HEAT_SCALE = ['0–19', '20–39', '40–59', '60–79', '80–100'] as const;

/** One text node of the annotated view and the offset of its first character in the text. */
export interface TextPiece {
  node: Text;
  start: number;
}

/** A stretch of the text inside one shading state: an AI passage (`score` set) or not. */
interface Zone {
  start: number;
  end: number;
  score?: number;
}

/** A flagged sentence, clipped so flagged spans never overlap. */
interface Flag {
  start: number;
  end: number;
  index: number;
  dims: DetectResult['textAnnotations'][number]['dims'];
}

/** The text from 0 to `length` cut into alternating plain and AI-passage zones (human passages stay plain). */
function zonesOf(segments: DetectResult['segments'], length: number): Zone[] {
  const zones: Zone[] = [];
  let cursor = 0;
  for (const s of [...segments].filter((s) => s.label === 'ai').sort((a, b) => a.start - b.start)) {
    const start = Math.max(s.start, cursor);
    const end = Math.min(s.end, length);
    if (end <= start) continue;
    if (start > cursor) zones.push({ start: cursor, end: start });
    zones.push({ start, end, score: s.score });
    cursor = end;
  }
  if (cursor < length) zones.push({ start: cursor, end: length });
  return zones;
}

/** The annotations in text order, overlaps dropped and spans clamped to the text. */
function flagsOf(annotations: DetectResult['textAnnotations'], length: number): Flag[] {
  const flags: Flag[] = [];
  let cursor = 0;
  [...annotations]
    .sort((a, b) => a.start - b.start)
    .forEach((ann, index) => {
      const start = Math.max(ann.start, cursor);
      const end = Math.min(ann.end, length);
      if (end <= start) return; // overlapping or out-of-range span: keep the text, skip the mark
      flags.push({ start, end, index, dims: ann.dims });
      cursor = end;
    });
  return flags;
}

/**
 * A flagged sentence's mark, its text added by `fill`; the part after a passage boundary is a
 * plain continuation without a tooltip of its own.
 */
function flagMark(flag: Flag, first: boolean, lang: UiLang, fill: (mark: HTMLElement) => void): HTMLElement {
  if (!first) {
    const cont = el('mark', 'flag-cont');
    fill(cont);
    return cont;
  }
  const mark = el('mark', 'flag');
  fill(mark);
  mark.tabIndex = 0;
  mark.dataset.dims = flag.dims.map((d) => d.id).join(' ');
  const tip = el('span', 'tip', tr(lang, 'flaggedBy', { dims: flag.dims.map((d) => d.label).join(', ') }));
  tip.id = `flag-tip-${flag.index}`;
  tip.setAttribute('role', 'tooltip');
  mark.setAttribute('aria-describedby', tip.id);
  mark.appendChild(tip);
  for (const type of ['blur', 'mouseleave']) mark.addEventListener(type, () => mark.classList.remove('quiet'));
  return mark;
}

/** The shaded band of one AI passage: a visible tag opens it and a screen-reader note closes it, so colour is never alone. */
function passageBand(zone: Zone, lang: UiLang): { band: HTMLElement; close: () => void } {
  const band = el('span', 'seg-ai');
  band.dataset.start = String(zone.start);
  band.dataset.end = String(zone.end);
  band.dataset.score = String(zone.score);
  const tag = el('span', 'seg-tag', tr(lang, 'aiPassageTag'));
  // On the tag, not the band: a title on the band would pop up over every flag tooltip inside it.
  tag.title = tr(lang, 'aiPassageTitle', { score: zone.score! });
  band.appendChild(tag);
  return { band, close: () => band.appendChild(el('span', 'sr-only', tr(lang, 'aiPassageEnd'))) };
}

/** Fills `container` with the text: AI passages shaded, flagged sentences in focusable marks; returns the text pieces. */
export function renderAnnotated(container: HTMLElement, text: string, result: DetectResult, lang: UiLang): TextPiece[] {
  container.replaceChildren();
  const pieces: TextPiece[] = [];
  const addText = (parent: Node, start: number, end: number) => {
    if (end <= start) return;
    const node = document.createTextNode(text.slice(start, end));
    parent.appendChild(node);
    pieces.push({ node, start });
  };
  const flags = flagsOf(result.textAnnotations, text.length);
  const started = new Set<number>();
  for (const zone of zonesOf(showsPassages(result.verdictKey) ? result.segments : [], text.length)) {
    const shaded = zone.score === undefined ? null : passageBand(zone, lang);
    const parent = shaded?.band ?? container;
    let cursor = zone.start;
    for (const flag of flags) {
      // A flagged sentence that crosses a passage boundary is split there, so the bands nest cleanly.
      const start = Math.max(flag.start, zone.start);
      const end = Math.min(flag.end, zone.end);
      if (end <= start) continue;
      addText(parent, cursor, start);
      parent.appendChild(flagMark(flag, !started.has(flag.index), lang, (mark) => addText(mark, start, end)));
      started.add(flag.index);
      cursor = end;
    }
    addText(parent, cursor, zone.end);
    if (shaded) {
      shaded.close();
      container.appendChild(shaded.band);
    }
  }
  return pieces;
}

/** The legend of the view: the AI-passage band (only when one is shown) and the flag mark. */
export function renderLegend(list: HTMLElement, result: DetectResult, lang: UiLang): void {
  list.replaceChildren();
  // The band's entry only where bands are drawn (renderAnnotated): an inconclusive answer shows none.
  if (showsPassages(result.verdictKey) && result.segments.some((s) => s.label === 'ai')) {
    const item = el('li');
    const sample = el('span', 'swatch seg-ai');
    sample.append(el('span', 'seg-tag', tr(lang, 'aiPassageTag')), 'Aa');
    item.append(sample, ' ', tr(lang, 'legendAiPassage'));
    list.appendChild(item);
  }
  if (result.textAnnotations.length > 0) {
    const item = el('li');
    item.append(el('span', 'swatch flag', 'Aa'), ' ', tr(lang, 'legendFlag'));
    list.appendChild(item);
  }
  if (result.sentenceScores.length > 0) {
    // One swatch per shade band, labelled with its score range: the shade is never read without its numbers.
    const item = el('li', 'heat-legend');
    const scale = el('span', 'heat-scale');
    for (let b = 0; b < HEAT_SCALE.length; b++) {
      const swatch = el('span', `swatch heat-${b}`, HEAT_SCALE[b]);
      scale.appendChild(swatch);
    }
    item.append(tr(lang, 'legendHeat'), ' ', scale);
    list.appendChild(item);
  }
  list.hidden = list.childElementCount === 0;
}

/** Maps a [start, end) span of the text to a DOM Range over the annotated view's text pieces. */
export function rangeFor(pieces: TextPiece[], start: number, end: number): Range | null {
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
