/** Inline Markdown -> plain text (CommonMark section 6), one line at a time. */

const IMAGE = /!\[([^\]]*)\]\([^)]*\)|!\[([^\]]*)\]\[[^\]]*\]/g;
const INLINE_LINK = /\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g;
const REFERENCE_LINK = /\[([^\]]+)\]\[[^\]]*\]/g;
const FOOTNOTE_REF = /\[\^[^\]]+\]:?/g;
const AUTOLINK = /<((?:https?|ftp|mailto):[^>\s]+|[^@>\s]+@[^>\s]+)>/g;
const HTML_TAG = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g;
const CODE_SPAN = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
const STRONG = /(\*\*|__)(?=\S)([\s\S]*?\S)\1/g;
const EMPHASIS_STAR = /\*(?=\S)([^*]*?\S)\*/g;
/** Underscore emphasis only at word boundaries, so snake_case survives. */
const EMPHASIS_UNDERSCORE = /(^|[^\p{L}\p{N}_])_(?=\S)([^_]*?\S)_(?![\p{L}\p{N}_])/gu;
const STRIKE = /~~(?=\S)([\s\S]*?\S)~~/g;
const ESCAPE = /\\([!-/:-@[-`{-~])/g;
const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', mdash: '—', ndash: '–', hellip: '…' };
const ENTITY = /&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi;
/** Placeholders keep code spans and escaped characters away from the other rules. */
const SLOT = '\u0000';

/** Removes inline Markdown syntax from one line, keeping the text a reader sees. */
export function stripInline(line: string): string {
  const slots: string[] = [];
  const hold = (text: string) => {
    slots.push(text);
    return `${SLOT}${slots.length - 1}${SLOT}`;
  };
  let s = line.replace(CODE_SPAN, (_m, _ticks, code: string) => hold(code.trim()));
  s = s.replace(ESCAPE, (_m, ch: string) => hold(ch));
  s = s.replace(IMAGE, '').replace(FOOTNOTE_REF, '');
  s = s.replace(INLINE_LINK, '$1').replace(REFERENCE_LINK, '$1');
  s = s.replace(AUTOLINK, '$1').replace(HTML_TAG, '');
  for (let i = 0; i < 3; i++) {
    s = s.replace(STRONG, '$2').replace(EMPHASIS_STAR, '$1').replace(EMPHASIS_UNDERSCORE, '$1$2').replace(STRIKE, '$1');
  }
  s = s.replace(ENTITY, decodeEntity);
  s = s.replace(new RegExp(`${SLOT}(\\d+)${SLOT}`, 'g'), (_m, i: string) => slots[Number(i)]);
  return s.replace(/[ \t]{2,}/g, ' ').trim();
}

function decodeEntity(match: string, body: string): string {
  if (body[0] === '#') {
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
  }
  return NAMED_ENTITIES[body.toLowerCase()] ?? match;
}
