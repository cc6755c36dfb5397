/** pdf.js text items -> lines -> paragraphs, using the positions the page layout gives. */

/** The fields of a pdf.js TextItem this module reads. */
export type PositionedText = { str: string; transform: number[]; width: number; height: number; hasEOL: boolean };

/** One visual line: its text, baseline y and font size. */
type Line = { text: string; y: number; size: number };

/** Items whose baselines differ by less than this share of the font size sit on one line. */
const SAME_LINE_TOLERANCE = 0.5;
/** A horizontal gap wider than this share of the font size between two items is a space. */
const WORD_GAP_RATIO = 0.15;
/** A line gap this much larger than the page's usual line gap starts a paragraph (1.4: body leading is ~1.2 em, a blank line doubles it). */
const PARAGRAPH_GAP_RATIO = 1.4;
const HYPHEN_AT_END = /(\p{L})[-\u00ad]$/u;
const STARTS_LOWERCASE = /^\p{Ll}/u;

/** Paragraphs of one page, in reading order, each with its lines joined and hyphenation undone. */
export function pageParagraphs(items: readonly PositionedText[]): string[] {
  const lines = toLines(items);
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const gap = lines[i - 1].y - lines[i].y;
    if (gap > 0) gaps.push(gap);
  }
  const usualGap = median(gaps);
  const paragraphs: string[] = [];
  let current = '';
  for (let i = 0; i < lines.length; i++) {
    const gap = i === 0 ? 0 : lines[i - 1].y - lines[i].y;
    const breaks = i > 0 && (gap <= 0 || gap > usualGap * PARAGRAPH_GAP_RATIO);
    if (breaks && current !== '') {
      paragraphs.push(current);
      current = '';
    }
    current = joinLines(current, lines[i].text);
  }
  if (current !== '') paragraphs.push(current);
  return paragraphs;
}

/** Joins two lines with a space, or with nothing when a word was hyphenated across the line end. */
export function joinLines(left: string, right: string): string {
  if (left === '') return right;
  if (right === '') return left;
  if (isHyphenatedBreak(left, right)) return left.slice(0, -1) + right;
  return `${left} ${right}`;
}

/** True when `left` ends in letter+hyphen and `right` goes on in lowercase ("extrac-" + "tion"). */
export function isHyphenatedBreak(left: string, right: string): boolean {
  return HYPHEN_AT_END.test(left) && STARTS_LOWERCASE.test(right);
}

function toLines(items: readonly PositionedText[]): Line[] {
  const lines: Line[] = [];
  let line: Line | null = null;
  let lineEndX = 0;
  let endOfLine = false;
  for (const item of items) {
    if (typeof item.str !== 'string') continue;
    const x = item.transform[4];
    const y = item.transform[5];
    const size = Math.hypot(item.transform[2], item.transform[3]) || item.height || 1;
    if (item.str === '') {
      if (item.hasEOL) endOfLine = true;
      continue;
    }
    const sameLine = line !== null && !endOfLine && Math.abs(line.y - y) < size * SAME_LINE_TOLERANCE;
    if (!sameLine) {
      if (line !== null && line.text.trim() !== '') lines.push(finish(line));
      line = { text: item.str, y, size };
    } else if (line !== null) {
      const gap = x - lineEndX;
      const spaced = /\s$/.test(line.text) || /^\s/.test(item.str);
      line.text += !spaced && gap > size * WORD_GAP_RATIO ? ` ${item.str}` : item.str;
    }
    lineEndX = x + item.width;
    endOfLine = item.hasEOL;
  }
  if (line !== null && line.text.trim() !== '') lines.push(finish(line));
  return lines;
}

function finish(line: Line): Line {
  return { ...line, text: line.text.replace(/\s+/g, ' ').trim() };
}

function median(values: number[]): number {
  if (values.length === 0) return Infinity;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
