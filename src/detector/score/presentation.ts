/**
 * The text the lexical score reads: the prose of a text without its presentation. Title lines,
 * headings, list markers, line breaks and an unfinished last sentence differ by label in several
 * training sources (a `Title:` line, a Markdown header, texts cut at a word limit, paragraph
 * layout); read as evidence, they moved a human text's score by +5 at the median and +14 at the
 * 90th percentile (issue 27). Training and scoring both read this view (engine.ts), so the model
 * cannot learn presentation, and the formatting dimension still sees the text as submitted.
 */

/** Marks that end a line as prose: a sentence mark, or a colon or semicolon... */
const PROSE_END = new Set(['.', '!', '?', '…', ':', ';']);
/** ...then any closing quotes, brackets or emphasis marks. */
const CLOSING = new Set(['"', "'", '”', '’', '»', ')', ']', '*', '_']);

/**
 * A line (or text) that ends as prose. Read from the end rather than by a regex anchored at `$`,
 * which the engine tries at every position of a paragraph-long line (every detection runs this).
 */
function endsAsProse(line: string): boolean {
  let i = line.length - 1;
  while (i >= 0 && CLOSING.has(line[i])) i--;
  return i >= 0 && PROSE_END.has(line[i]);
}
/** Line-start markup: a Markdown heading, a bullet or a quote mark, or list numbering. */
const HEADING_MARK = /^#{1,6}\s+/;
const LIST_MARK = /^(?:[-*+•‣◦>]|\d{1,3}[.)])\s+/;
/** A line wholly in bold or italics (a bold first line reads as a title). */
const EMPHASIS_LINE = /^(\*\*|__|\*|_)(?=\S)(.+?)\1$/;
/** A labelled title line, and a title and abstract run together on one line ("Title: ... Abstract: ..."). */
const TITLE_LABEL = /^(?:title|t[ií]tulo|headline|titular)\s*:/i;
const TITLE_THEN_ABSTRACT = /^(?:title|t[ií]tulo)\s*:.*?\b(?:abstract|resumen|summary)\s*:\s*/i;
/** A section label opening a line ("Abstract:", "Resumen:"): presentation, the rest of the line is prose. */
const SECTION_LABEL = /^(?:abstract|summary|resumen)\s*:\s*/i;
/**
 * A keyword list's label ("Keywords:", "Key words -", "Palabras clave:"). The list after it is no
 * prose: on a line of its own it is left out, and at the end of the text (an abstract's trailing
 * "Keywords: a, b, c", run into its last line) it is cut off. Round 6's human abstracts end with one
 * (325 of 1,749) and its AI abstracts never do: read as evidence, the word "Keywords" says human.
 */
const KEYWORDS_LABEL = /(?:\bkey ?words?|\bpalabras? claves?|\bindex terms)(?:\s*:|\s+[-–—])/gi;
/** The same label at the start of a line (anchored: no scan of the rest of a paragraph-long line). */
const KEYWORDS_AT_START = new RegExp(`^${KEYWORDS_LABEL.source}`, 'i');
/** A trailing keyword list is at most this many words (a list, maybe with a page count after it). */
const KEYWORDS_MAX_WORDS = 60;
/** A short line without a sentence mark, standing on its own, is a heading, not a sentence. */
const HEADING_MAX_WORDS = 12;
/** A line that stops on a comma or a joining word continues on the next line: a hard wrap, not a heading. */
const CONTINUES =
  /(?:[,(\-–—/&]|\b(?:and|or|but|the|a|an|of|in|on|at|to|for|with|by|from|as|that|which|is|are|was|were|y|o|pero|el|la|los|las|un|una|de|del|en|con|por|para|que|es|son|fue)\s*)$/i;

/** Whitespace as `\s` reads it, with ASCII decided without a regex. */
function isSpace(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c < 128 ? c === 32 || (c >= 9 && c <= 13) : /\s/.test(s[i]);
}

/** At most `most` runs of non-space (words), counted without splitting a paragraph-long line. */
function atMostWords(s: string, most: number): boolean {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const space = isSpace(s, i);
    if (!space && !inWord && ++words > most) return false;
    inWord = !space;
  }
  return true;
}

/**
 * The prose view as pieces of the text: [start, end) offsets in order, each inside one line, read
 * joined by single spaces and, when `close`, followed by a full stop. The wasm core reads the view
 * this way in the same pass as the text (assembly/prose.ts); `viewText` spells it out.
 */
export interface ProseView {
  /** Start and end offsets (UTF-16) of each kept piece, flattened: [s0, e0, s1, e1, ...]. */
  ranges: number[];
  /** The view ends in a sentence the text cuts off: a full stop closes it. */
  close: boolean;
}

/**
 * The prose of `text` as one run of sentences: headings and title lines left out, list and
 * heading marks removed, every line break read as a space, and a last sentence that the text cuts
 * off closed by a full stop. Returns `text` itself when there is nothing to take away (the common
 * case for a single paragraph of finished sentences).
 */
export function scoringText(text: string): string {
  const view = viewText(text, proseView(text));
  return view === text.trim() ? text : view;
}

/** The view is `text` itself, but for the whitespace around it: nothing is taken away. */
export function isWholeText(text: string, view: ProseView): boolean {
  // A piece starts and ends on a non-space: as long as the trimmed text, it is the trimmed text.
  return !view.close && view.ranges.length === 2 && view.ranges[1] - view.ranges[0] === text.trim().length;
}

/** The string a prose view reads: its pieces joined by spaces, then the closing full stop. */
export function viewText(text: string, view: ProseView): string {
  const pieces: string[] = [];
  for (let k = 0; k < view.ranges.length; k += 2) pieces.push(text.slice(view.ranges[k], view.ranges[k + 1]));
  return view.close ? `${pieces.join(' ')}.` : pieces.join(' ');
}

/** Offsets [a, b) of `s` from `from` to `to` without the whitespace String.trim takes off. */
function trimmed(s: string, from: number, to: number): [number, number] {
  let a = from;
  let b = to;
  while (a < b && isSpace(s, a)) a++;
  while (b > a && isSpace(s, b - 1)) b--;
  return [a, b];
}

/** The lines of `text` (split at \r\n, \r or \n), trimmed, with the offset where each starts. */
function trimmedLines(text: string): { lines: string[]; starts: number[] } {
  const lines: string[] = [];
  const starts: number[] = [];
  // Found with indexOf, not a loop over every character: most of a text is inside its lines.
  let cr = text.indexOf('\r');
  for (let from = 0; ; ) {
    if (cr !== -1 && cr < from) cr = text.indexOf('\r', from);
    const lf = text.indexOf('\n', from);
    let end = lf === -1 ? text.length : lf;
    if (cr !== -1 && cr < end) end = cr;
    const [a, b] = trimmed(text, from, end);
    lines.push(text.slice(a, b));
    starts.push(a);
    if (end === text.length) return { lines, starts };
    from = end + (end === cr && text.charCodeAt(end + 1) === 10 ? 2 : 1);
  }
}

/** The prose view of `text`: which pieces of it the score reads (see scoringText). */
export function proseView(text: string): ProseView {
  const { lines, starts } = trimmedLines(text);
  const kept: string[] = [];
  let ranges: number[] = [];
  let firstProse = true;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    if (!line) continue;
    let start = starts[i];
    /** Take the first `n` code units off the line. */
    const drop = (n = 0) => {
      start += n;
      line = line.slice(n);
    };
    const mark = HEADING_MARK.exec(line);
    let heading = mark !== null;
    drop(mark?.[0].length);
    drop(LIST_MARK.exec(line)?.[0].length);
    if (firstProse) {
      const both = TITLE_THEN_ABSTRACT.exec(line);
      if (both) drop(both[0].length);
      else if (TITLE_LABEL.test(line)) heading = true;
    }
    drop(SECTION_LABEL.exec(line)?.[0].length);
    if (startsWithKeywords(line)) continue;
    const emphasis = EMPHASIS_LINE.exec(line);
    if (emphasis) {
      const open = emphasis[1].length;
      const [a, b] = trimmed(line, open, open + emphasis[2].length);
      start += a;
      line = line.slice(a, b);
      if (!endsAsProse(line)) heading = true;
    }
    // Cheapest test first: a paragraph-long line is never a heading.
    if (!heading && atMostWords(line, HEADING_MAX_WORDS) && !endsAsProse(line) && !CONTINUES.test(line)) {
      // Standing on its own: at the start, or after a blank line or a finished line, and followed
      // by a blank line or a new sentence. A line a hard wrap cut mid-sentence continues in lower case.
      const before = i === 0 || !lines[i - 1] || endsAsProse(lines[i - 1]);
      const next = lines[i + 1];
      const after = next === undefined || !next || /^[^a-záéíóúñü]/u.test(next.replace(LIST_MARK, ''));
      heading = before && after;
    }
    if (heading || !line) continue;
    kept.push(line);
    ranges.push(start, start + line.length);
    firstProse = false;
  }
  const prose = kept.join(' ');
  const length = proseLength(prose);
  if (!/\S/.test(prose.slice(0, length))) {
    // Nothing but headings (a list of titles): score the words as they are rather than nothing.
    ranges = [];
    for (let i = 0; i < lines.length; i++) if (lines[i]) ranges.push(starts[i], starts[i] + lines[i].length);
  } else if (length < prose.length) ranges = firstChars(ranges, length);
  const last = ranges.length > 0 ? text.slice(ranges[ranges.length - 2], ranges[ranges.length - 1]) : '';
  return { ranges, close: cutOff(last) };
}

/** The first pieces of `ranges` that, joined by single spaces, make `length` code units. */
function firstChars(ranges: number[], length: number): number[] {
  const out: number[] = [];
  let at = 0;
  for (let k = 0; k < ranges.length && at < length; k += 2) {
    const take = Math.min(ranges[k + 1] - ranges[k], length - at);
    out.push(ranges[k], ranges[k] + take);
    at += take + 1;
  }
  return out;
}

/** A line that opens with a keyword list's label (emphasis marks allowed before it). */
function startsWithKeywords(line: string): boolean {
  return KEYWORDS_AT_START.test(line.replace(/^[*_]+/, ''));
}

/**
 * The length of `prose` without a keyword list that ends it: the last keyword label that follows
 * a finished sentence and has at most KEYWORDS_MAX_WORDS words after it. A keyword label inside the
 * prose ("the key word is...") has no colon after it and stays.
 */
function proseLength(prose: string): number {
  KEYWORDS_LABEL.lastIndex = 0;
  let last = -1;
  for (let m = KEYWORDS_LABEL.exec(prose); m; m = KEYWORDS_LABEL.exec(prose)) last = m.index;
  if (last <= 0 || !atMostWords(prose.slice(last), KEYWORDS_MAX_WORDS + 1)) return prose.length;
  const before = prose.slice(0, last).trimEnd();
  return before && endsAsProse(before) ? before.length : prose.length;
}

/**
 * A view whose last piece is `last` ends in a sentence the text cuts off mid-way: a full stop
 * closes it, so the words stay evidence and the missing end mark does not (several sources cut one
 * label's texts at a word limit). Closing rather than dropping the fragment keeps the score nearest
 * the uncut text's.
 */
function cutOff(last: string): boolean {
  // The last character only (two code units: it may be a surrogate pair).
  return last !== '' && !endsAsProse(last) && /[\p{L}\p{N}]$/u.test(last.slice(-2));
}
