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
const TABLE_DELIMITER = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$/;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;
const RAW_TEXT_BLOCK = /<(script|style|pre|textarea)\b[^>]*>[\s\S]*?<\/\1>/gi;
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
  const body = source.replace(FRONT_MATTER, '').replace(HTML_COMMENT, '').replace(RAW_TEXT_BLOCK, '');
  return assemble(toLines(body.split('\n')));
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
    if (REFERENCE_DEFINITION.test(row) || TABLE_DELIMITER.test(row)) continue;
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
  if (row.includes('|') && (next === undefined || TABLE_DELIMITER.test(next) || /^\s*\|/.test(row))) {
    const cells = row.trim().replace(/^\||\|$/g, '').split('|');
    if (cells.length > 1) return { kind: 'block', text: cells.map((c) => stripInline(c.trim())).join('\t') };
  }
  const hard = HARD_BREAK.test(row);
  const text = stripInline(row.replace(HARD_BREAK, '').trim());
  return { kind: hard ? 'block' : 'para', text };
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
