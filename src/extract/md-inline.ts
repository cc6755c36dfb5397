/**
 * Inline Markdown -> plain text (CommonMark section 6), one line at a time, in time linear in the
 * line's length. Markdown is read on the server's main thread, so a construct opened and never
 * closed must not make each opener rescan the rest of the line: the regular expressions this
 * replaces took 3.7 s for 64 KB of `<!--`, 1 s for `![a](` repeated. Every rule below is one
 * left-to-right pass that looks closers up in tables built right-to-left beforehand.
 */

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  mdash: '—',
  ndash: '–',
  hellip: '…',
};
const ENTITY = /&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi;
/** Placeholders keep code spans and escaped characters away from the other rules. */
const SLOT = '\u0000';
const SLOT_REF = /\u0000(\d+)\u0000/g;
const ESCAPE = /\\([!-/:-@[-`{-~])/g;
const WORD_CHAR = /^[\p{L}\p{N}_]$/u;
const AUTOLINK_SCHEMES = ['http:', 'https:', 'ftp:', 'mailto:'];
/** Emphasis is undone this many times, so `***a***` and `**_a_**` lose every mark. */
const EMPHASIS_PASSES = 3;

/** Removes inline Markdown syntax from one line, keeping the text a reader sees. */
export function stripInline(line: string): string {
  const slots: string[] = [];
  let s = protectCodeAndEscapes(line, slots);
  s = stripLinks(s);
  s = stripAngleBrackets(s);
  for (let i = 0; i < EMPHASIS_PASSES; i++) {
    s = stripPaired(s, '**');
    s = stripPaired(s, '__');
    s = stripSingle(s, '*', false);
    s = stripSingle(s, '_', true);
    s = stripPaired(s, '~~');
  }
  s = s.replace(ENTITY, decodeEntity);
  s = s.replace(SLOT_REF, (_m, i: string) => slots[Number(i)]);
  return s.replace(/[ \t]{2,}/g, ' ').trim();
}

/**
 * Code spans (a run of N backticks up to the next run of exactly N) become placeholders, then
 * backslash escapes outside them. For each run, the next run of the same length comes from a
 * table built from the right, so an unmatched run costs nothing extra.
 */
function protectCodeAndEscapes(line: string, slots: string[]): string {
  const hold = (text: string) => {
    slots.push(text);
    return `${SLOT}${slots.length - 1}${SLOT}`;
  };
  const runs: { start: number; length: number }[] = [];
  for (let i = line.indexOf('`'); i >= 0; ) {
    let end = i;
    while (line[end] === '`') end++;
    runs.push({ start: i, length: end - i });
    i = line.indexOf('`', end);
  }
  const nextSame = new Array<number>(runs.length).fill(-1);
  const lastByLength = new Map<number, number>();
  for (let r = runs.length - 1; r >= 0; r--) {
    nextSame[r] = lastByLength.get(runs[r].length) ?? -1;
    lastByLength.set(runs[r].length, r);
  }
  let out = '';
  let at = 0;
  for (let r = 0; r < runs.length; r++) {
    const close = nextSame[r];
    if (close < 0) continue;
    const { start, length } = runs[r];
    out += line.slice(at, start) + hold(line.slice(start + length, runs[close].start).trim());
    at = runs[close].start + length;
    r = close;
  }
  out += line.slice(at);
  return out.replace(ESCAPE, (_m, ch: string) => hold(ch));
}

/** For each index, the first index at or after it whose character satisfies `match` (or -1). */
function nextIndexTable(s: string, match: (c: string) => boolean): Int32Array {
  const table = new Int32Array(s.length + 1).fill(-1);
  for (let i = s.length - 1; i >= 0; i--) table[i] = match(s[i]) ? i : table[i + 1];
  return table;
}

/** For each '(', the index of its matching ')' (or -1), by one pass with a stack. */
function matchingParens(s: string): Int32Array {
  const match = new Int32Array(s.length).fill(-1);
  const open: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') open.push(i);
    else if (s[i] === ')' && open.length > 0) match[open.pop()!] = i;
  }
  return match;
}

/**
 * Images (`![alt](url)`, `![alt][ref]`) and footnote references (`[^1]`, `[^1]:`) are dropped
 * first, so a badge inside a link leaves nothing; then links (`[text](url)`, `[text][ref]`)
 * keep their text. Text stops at the first `]`; a destination's parentheses must balance.
 */
function stripLinks(s: string): string {
  return stripBrackets(stripBrackets(s, true), false);
}

function stripBrackets(s: string, images: boolean): string {
  if (!s.includes('[')) return s;
  const nextClose = nextIndexTable(s, (c) => c === ']');
  const parens = matchingParens(s);
  let out = '';
  for (let i = 0; i < s.length; ) {
    const bracket = s.indexOf('[', i);
    const from = bracket < 0 ? s.length : images && bracket > i && s[bracket - 1] === '!' ? bracket - 1 : bracket;
    out += s.slice(i, from);
    if (from >= s.length) break;
    i = from;
    const image = s[i] === '!';
    const open = image ? i + 1 : i;
    const close = nextClose[open + 1];
    const text = close < 0 ? '' : s.slice(open + 1, close);
    let end = -1;
    if (close < 0) end = -1;
    else if (images && !image && text.startsWith('^') && text.length > 1) end = s[close + 1] === ':' ? close + 2 : close + 1;
    else if (images !== image) end = -1;
    else if (s[close + 1] === '(' && parens[close + 1] >= 0) end = parens[close + 1] + 1;
    else if (s[close + 1] === '[' && (image || text !== '') && nextClose[close + 2] >= 0) end = nextClose[close + 2] + 1;
    if (end < 0) {
      out += s[i];
      i++;
      continue;
    }
    if (!images) out += text;
    i = end;
  }
  return out;
}

/** Autolinks (`<https://x>`, `<a@b.c>`: address kept) and HTML tags (dropped). */
function stripAngleBrackets(s: string): string {
  if (!s.includes('<')) return s;
  const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v';
  const nextGtOrSpace = nextIndexTable(s, (c) => c === '>' || isSpace(c));
  const nextAngle = nextIndexTable(s, (c) => c === '<' || c === '>');
  const nextAt = nextIndexTable(s, (c) => c === '@');
  let out = '';
  for (let i = 0; i < s.length; ) {
    const lt = s.indexOf('<', i);
    out += s.slice(i, lt < 0 ? s.length : lt);
    if (lt < 0) break;
    i = lt;
    const stop = nextGtOrSpace[i + 1];
    if (stop > i + 1 && s[stop] === '>') {
      const body = s.slice(i + 1, stop);
      const at = nextAt[i + 1];
      const email = at > i + 1 && at < stop - 1;
      if (email || AUTOLINK_SCHEMES.some((scheme) => body.startsWith(scheme) && body.length > scheme.length)) {
        out += body;
        i = stop + 1;
        continue;
      }
    }
    const tagEnd = htmlTagEnd(s, i, nextAngle);
    if (tagEnd < 0) {
      out += '<';
      i++;
      continue;
    }
    i = tagEnd;
  }
  return out;
}

/** Index past an HTML tag starting at `start` (`<name ...>`, `</name>`, `<name/>`), or -1. */
function htmlTagEnd(s: string, start: number, nextAngle: Int32Array): number {
  let i = start + 1;
  if (s[i] === '/') i++;
  if (!/[A-Za-z]/.test(s[i] ?? '')) return -1;
  while (i < s.length && /[A-Za-z0-9-]/.test(s[i])) i++;
  if (s[i] === '>') return i + 1;
  if (s[i] === '/' && s[i + 1] === '>') return i + 2;
  if (!/\s/.test(s[i] ?? '')) return -1;
  // Attributes run to the next '<' or '>'; only a '>' closes the tag.
  const end = nextAngle[i];
  return end >= 0 && s[end] === '>' ? end + 1 : -1;
}

/**
 * `**a**`, `__a__`, `~~a~~`: the opener is followed by a non-space, the closer is the first
 * marker after at least one character that follows a non-space (found in a right-to-left table).
 */
function stripPaired(s: string, marker: string): string {
  if (!s.includes(marker)) return s;
  const closer = new Int32Array(s.length + 1).fill(-1);
  for (let i = s.length - 1; i >= 1; i--) {
    closer[i] = s.startsWith(marker, i) && !/\s/.test(s[i - 1]) ? i : closer[i + 1];
  }
  return unwrapMarked(s, marker, (i) => (i + 2 < s.length && !/\s/.test(s[i + 2]) ? closer[i + 3] : -1));
}

/**
 * `*a*` and `_a_`: the content holds no marker except, possibly, as its last character (the
 * original pattern was `marker(?=\S)([^marker]*?\S)marker`), so the closer is either the next
 * marker or the one right after it. Underscores only count at word boundaries (`wordBoundary`),
 * so snake_case survives.
 */
function stripSingle(s: string, marker: string, wordBoundary: boolean): string {
  if (!s.includes(marker)) return s;
  const next = nextIndexTable(s, (c) => c === marker);
  const boundaryAfter = (close: number) => !wordBoundary || !WORD_CHAR.test(s[close + 1] ?? ' ');
  return unwrapMarked(s, marker, (i) => {
    const opens = i + 1 < s.length && !/\s/.test(s[i + 1]) && (!wordBoundary || i === 0 || !WORD_CHAR.test(s[i - 1]));
    const first = opens ? next[i + 1] : -1;
    if (first > i + 1 && !/\s/.test(s[first - 1]) && boundaryAfter(first)) return first;
    if (first > 0 && s[first + 1] === marker && boundaryAfter(first + 1)) return first + 1;
    return -1;
  });
}

/**
 * One left-to-right pass: at each `marker`, `closeAt(i)` gives the index of its closing marker
 * (or -1: the character is kept and the scan moves one on); a matched pair is replaced by what
 * it encloses. Linear as long as closeAt is O(1).
 */
function unwrapMarked(s: string, marker: string, closeAt: (i: number) => number): string {
  let out = '';
  for (let i = 0; i < s.length; ) {
    const at = s.indexOf(marker, i);
    out += s.slice(i, at < 0 ? s.length : at);
    if (at < 0) break;
    const close = closeAt(at);
    if (close < 0) {
      out += s[at];
      i = at + 1;
      continue;
    }
    out += s.slice(at + marker.length, close);
    i = close + marker.length;
  }
  return out;
}

function decodeEntity(match: string, body: string): string {
  if (body[0] === '#') {
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
  }
  return NAMED_ENTITIES[body.toLowerCase()] ?? match;
}
