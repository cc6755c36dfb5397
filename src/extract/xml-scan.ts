/**
 * A linear-time XML tokenizer for untrusted input (XML 1.0, section 2-3, leniently). Every step
 * scans forward from where the last one stopped and never looks back, so any input, however
 * nested, unclosed or repeated, costs O(length): the regular expressions it replaces were
 * quadratic on `<mc:Fallback>` repeated without a closing tag (a 10 KB DOCX held a thread 30 s).
 * Comments, processing instructions, CDATA markers and DOCTYPE declarations (with any internal
 * entity subset) are skipped; entities are NOT expanded here (see decodeXmlText).
 */

/** What the cursor stopped on. */
export type XmlTokenKind = 'open' | 'close' | 'text';

enum Char {
  Bang = 33,
  DoubleQuote = 34,
  SingleQuote = 39,
  Slash = 47,
  Colon = 58,
  LessThan = 60,
  GreaterThan = 62,
  Question = 63,
  OpenBracket = 91,
  CloseBracket = 93,
}

const COMMENT_OPEN = '<!--';
const COMMENT_CLOSE = '-->';
const CDATA_OPEN = '<![CDATA[';
const CDATA_CLOSE = ']]>';
const PI_CLOSE = '?>';

/**
 * A forward-only cursor: call next() until it returns false, reading `kind` and then `prefix`
 * (e.g. "w:", or "" without one), `local` and `selfClosing` for tags, `text` (raw, entities
 * still encoded) and `cdata` for text.
 */
export class XmlCursor {
  kind: XmlTokenKind = 'text';
  prefix = '';
  local = '';
  selfClosing = false;
  text = '';
  /** True when `text` came from a CDATA section (literal: no entities to decode). */
  cdata = false;
  private pos = 0;

  constructor(private readonly xml: string) {}

  /** Moves to the next tag or text run; false at the end (an unclosed construct ends the input). */
  next(): boolean {
    const xml = this.xml;
    while (this.pos < xml.length) {
      const start = this.pos;
      if (xml.charCodeAt(start) !== Char.LessThan) {
        const lt = xml.indexOf('<', start);
        this.pos = lt < 0 ? xml.length : lt;
        return this.setText(xml.slice(start, this.pos), false);
      }
      const second = xml.charCodeAt(start + 1);
      if (second === Char.Bang) {
        if (xml.startsWith(COMMENT_OPEN, start)) {
          this.pos = after(xml, COMMENT_CLOSE, start + COMMENT_OPEN.length);
        } else if (xml.startsWith(CDATA_OPEN, start)) {
          const from = start + CDATA_OPEN.length;
          const end = xml.indexOf(CDATA_CLOSE, from);
          this.pos = end < 0 ? xml.length : end + CDATA_CLOSE.length;
          return this.setText(xml.slice(from, end < 0 ? xml.length : end), true);
        } else {
          this.pos = this.skipDeclaration(start + 2);
        }
        continue;
      }
      if (second === Char.Question) {
        this.pos = after(xml, PI_CLOSE, start + 2);
        continue;
      }
      const closing = second === Char.Slash;
      const nameStart = closing ? start + 2 : start + 1;
      const nameEnd = scanName(xml, nameStart);
      if (nameEnd === nameStart) {
        // A stray '<' (not markup): skip the character, as a lenient reader would.
        this.pos = start + 1;
        continue;
      }
      const gt = this.tagEnd(nameEnd);
      if (gt < 0) {
        this.pos = xml.length;
        return false;
      }
      this.pos = gt + 1;
      this.kind = closing ? 'close' : 'open';
      this.setName(xml.slice(nameStart, nameEnd));
      this.selfClosing = !closing && xml.charCodeAt(gt - 1) === Char.Slash;
      return true;
    }
    return false;
  }

  private setText(text: string, cdata: boolean): true {
    this.kind = 'text';
    this.text = text;
    this.cdata = cdata;
    return true;
  }

  private setName(name: string): void {
    const colon = name.indexOf(':');
    this.prefix = colon < 0 ? '' : name.slice(0, colon + 1);
    this.local = colon < 0 ? name : name.slice(colon + 1);
  }

  /** Index of the '>' closing a tag whose attributes start at `from` ('>' inside quotes does not count), or -1. */
  private tagEnd(from: number): number {
    const xml = this.xml;
    let quote = 0;
    for (let i = from; i < xml.length; i++) {
      const c = xml.charCodeAt(i);
      if (quote !== 0) {
        if (c === quote) quote = 0;
      } else if (c === Char.GreaterThan) {
        return i;
      } else if (c === Char.DoubleQuote || c === Char.SingleQuote) {
        quote = c;
      }
    }
    return -1;
  }

  /** Past a `<!...>` declaration: brackets (DOCTYPE's internal subset) and quotes nest one level deep each. */
  private skipDeclaration(from: number): number {
    const xml = this.xml;
    let quote = 0;
    let brackets = 0;
    for (let i = from; i < xml.length; i++) {
      const c = xml.charCodeAt(i);
      if (quote !== 0) {
        if (c === quote) quote = 0;
      } else if (c === Char.DoubleQuote || c === Char.SingleQuote) {
        quote = c;
      } else if (c === Char.OpenBracket) {
        brackets++;
      } else if (c === Char.CloseBracket) {
        if (brackets > 0) brackets--;
      } else if (c === Char.GreaterThan && brackets === 0) {
        return i + 1;
      }
    }
    return xml.length;
  }
}

/** Index just past the next `marker` at or after `from`, or the end of the input. */
function after(xml: string, marker: string, from: number): number {
  const at = xml.indexOf(marker, from);
  return at < 0 ? xml.length : at + marker.length;
}

/** End of an XML name starting at `from` (letters, digits, '_', '-', '.', ':' and anything non-ASCII). */
function scanName(xml: string, from: number): number {
  let i = from;
  while (i < xml.length && isNameChar(xml.charCodeAt(i), i === from)) i++;
  return i;
}

function isNameChar(c: number, first: boolean): boolean {
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === Char.Colon || c > 127) return true;
  if (first) return false;
  return (c >= 48 && c <= 57) || c === 45 || c === 46;
}

const XML_ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g;
const MAX_CODE_POINT = 0x10ffff;
const REPLACEMENT = '\ufffd';
const XML_NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Decodes the five predefined entities and character references (linear: the pattern has no
 * nested repetition). Entities a DOCTYPE declares are never expanded: no "billion laughs".
 */
export function decodeXmlText(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(XML_ENTITY, (_m, body: string) => {
    if (body[0] !== '#') return XML_NAMED[body];
    const code = body[1] === 'x' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code > 0 && code <= MAX_CODE_POINT ? String.fromCodePoint(code) : REPLACEMENT;
  });
}
