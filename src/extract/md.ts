import { extractTxt } from './txt.ts';
import { stripInline } from './md-inline.ts';

/** One rendered line and how it joins its neighbours. */
type Line = { kind: 'para' | 'block' | 'blank'; text: string };

const FRONT_MATTER = /^(?:---[ \t]*\n[\s\S]*?\n(?:---|\.\.\.)[ \t]*(?:\n|$)|\+\+\+[ \t]*\n[\s\S]*?\n\+\+\+[ \t]*(?:\n|$))/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}(?:[ \t]+|$)(.*?)(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const LIST_ITEM = /^[ \t]*(?:[-+*]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?/;
const BLOCKQUOTE = /^(?: {0,3}>[ \t]?)+/;
const INDENTED_CODE = /^(?: {4}|\t)/;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]^][^\]]*\]:[ \t]*\S/;
/** One cell of a table's delimiter row (`:---:`); see isTableDelimiter. */
const DELIMITER_CELL = /^[ \t]*:?-+:?[ \t]*$/;
/** An HTML comment or a raw-text element (its content is not prose) starts here. */
const HTML_BLOCK_OPENER = /<!--|<(script|style|pre|textarea)\b/gi;
const COMMENT_CLOSE = '-->';
/** A hard line break: two trailing spaces or a trailing backslash (CommonMark 6.7). */
const HARD_BREAK = /(?: {2,}|\\)$/;

/**
 * Markdown bytes -> the prose a reader sees. Removed: front matter, heading marks, emphasis,
 * link and image syntax (link text kept, images dropped), HTML tags and comments, reference
 * definitions, table pipes. Fenced and indented code blocks are dropped (not prose, not scored).
 * Paragraph lines join with a space; blocks (headings, list items, rows) get their own line;
 * blank lines become paragraph breaks ("\n\n").
 */
export function extractMd(bytes: Uint8Array): string {
  return markdownToText(extractTxt(bytes));
}

/** The same as extractMd, on an already decoded string. */
export function markdownToText(source: string): string {
  const body = stripHtmlBlocks(source.replace(FRONT_MATTER, ''));
  return assemble(toLines(body.split('\n')));
}

/**
 * Drops HTML comments (an unclosed one runs to the end, as CommonMark's HTML block kind 2 does)
 * and script/style/pre/textarea elements (kept as text when never closed). Linear: each search
 * starts where the previous one stopped, and a closing tag found missing once is not searched
 * for again (the patterns this replaces rescanned the rest of the input for every opener:
 * 64 KB of `<!--` took 3.7 s on the event loop).
 */
function stripHtmlBlocks(source: string): string {
  if (!source.includes('<')) return source;
  const unclosed = new Set<string>();
  let out = '';
  let at = 0;
  HTML_BLOCK_OPENER.lastIndex = 0;
  for (let m = HTML_BLOCK_OPENER.exec(source); m !== null; m = HTML_BLOCK_OPENER.exec(source)) {
    const start = m.index;
    const name = m[1]?.toLowerCase();
    if (name === undefined) {
      const end = source.indexOf(COMMENT_CLOSE, start + 4);
      out += source.slice(at, start);
      at = end < 0 ? source.length : end + COMMENT_CLOSE.length;
      if (end < 0) break;
      HTML_BLOCK_OPENER.lastIndex = at;
      continue;
    }
    if (unclosed.has(name)) continue;
    const gt = source.indexOf('>', HTML_BLOCK_OPENER.lastIndex);
    // No '>' anywhere after: no tag or comment can end later either.
    if (gt < 0) break;
    const closer = new RegExp(`</${name}>`, 'gi');
    closer.lastIndex = gt + 1;
    const close = closer.exec(source);
    if (close === null) {
      unclosed.add(name);
      continue;
    }
    out += source.slice(at, start);
    at = close.index + close[0].length;
    HTML_BLOCK_OPENER.lastIndex = at;
  }
  return out + source.slice(at);
}

function toLines(rows: string[]): Line[] {
  const out: Line[] = [];
  let fence: string | null = null;
  let previous: Line = { kind: 'blank', text: '' };
  let inList = false;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (fence !== null) {
      if (row.trim().startsWith(fence) && row.trim().replace(/[`~]/g, '') === '') fence = null;
      continue;
    }
    const open = FENCE_OPEN.exec(row);
    if (open) {
      fence = open[1];
      previous = push(out, { kind: 'blank', text: '' });
      continue;
    }
    if (row.trim() === '') {
      previous = push(out, { kind: 'blank', text: '' });
      continue;
    }
    // Indented code starts after a blank line, but list continuations are indented too.
    if (INDENTED_CODE.test(row) && previous.kind === 'blank' && !inList) continue;
    if (THEMATIC_BREAK.test(row) && !(SETEXT_UNDERLINE.test(row) && previous.kind === 'para')) {
      previous = push(out, { kind: 'blank', text: '' });
      continue;
    }
    if (SETEXT_UNDERLINE.test(row) && previous.kind === 'para') {
      previous.kind = 'block';
      previous = push(out, { kind: 'blank', text: '' });
      continue;
    }
    if (REFERENCE_DEFINITION.test(row) || isTableDelimiter(row)) continue;
    previous = push(out, classify(row.replace(BLOCKQUOTE, ''), rows[i + 1]));
    if (LIST_ITEM.test(row)) inList = true;
    else if (previous.kind !== 'blank' && !/^\s/.test(row)) inList = false;
  }
  return out;
}

function classify(row: string, next: string | undefined): Line {
  const heading = HEADING.exec(row);
  if (heading) return { kind: 'block', text: stripInline(heading[1]) };
  if (LIST_ITEM.test(row)) return { kind: 'block', text: stripInline(row.replace(LIST_ITEM, '')) };
  if (row.includes('|') && (next === undefined || isTableDelimiter(next) || /^\s*\|/.test(row))) {
    const cells = row
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|');
    if (cells.length > 1) return { kind: 'block', text: cells.map((c) => stripInline(c.trim())).join('\t') };
  }
  const hard = HARD_BREAK.test(row);
  const text = stripInline(row.replace(HARD_BREAK, '').trim());
  return { kind: hard ? 'block' : 'para', text };
}

/**
 * A table's delimiter row (`| --- | :-: |`): at least two cells of dashes. Split on pipes instead
 * of one pattern with a repeated group, which JavaScriptCore ran in superlinear time (256 KB of
 * `|-` took 240 ms, 64 KB 2 ms).
 */
function isTableDelimiter(row: string): boolean {
  let inner = row.trim();
  if (inner.startsWith('|')) inner = inner.slice(1);
  if (inner.endsWith('|')) inner = inner.slice(0, -1);
  const cells = inner.split('|');
  return cells.length >= 2 && cells.every((cell) => DELIMITER_CELL.test(cell));
}

function push(out: Line[], line: Line): Line {
  out.push(line);
  return line;
}

function assemble(lines: Line[]): string {
  const paragraphs: string[] = [];
  let current = '';
  let lastKind: Line['kind'] = 'blank';
  const flush = () => {
    if (current.trim() !== '') paragraphs.push(current.trim());
    current = '';
  };
  for (const line of lines) {
    if (line.kind === 'blank') {
      flush();
    } else if (line.text !== '') {
      if (current === '') current = line.text;
      else current += (lastKind === 'para' && line.kind === 'para' ? ' ' : '\n') + line.text;
    }
    lastKind = line.kind;
  }
  flush();
  return paragraphs.join('\n\n');
}
