/** WordprocessingML (ECMA-376 part 1, 17.3) body XML -> text. */

/** One table being read; tables nest inside cells. */
type TableState = { rows: string[]; cells: string[]; cellParagraphs: string[] };

const TOKEN = /<(\/?)([A-Za-z][\w.-]*:)?([\w.-]+)([^>]*?)(\/?)>|([^<]+)/g;
/** Text boxes are stored twice (mc:Choice and the VML mc:Fallback): keep only the first copy. */
const MC_FALLBACK = /<mc:Fallback\b[^>]*>[\s\S]*?<\/mc:Fallback>/g;
const XML_ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g;
const MAX_CODE_POINT = 0x10ffff;
const REPLACEMENT = '\ufffd';
const XML_NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * The text of `word/document.xml`: paragraphs in order separated by a blank line, `w:tab` as
 * a tab, `w:br`/`w:cr` as a line break, each table row on its own line with cells separated by
 * tabs (paragraphs inside one cell joined by a space). Deleted text (`w:delText`) and field
 * codes (`w:instrText`) are not text runs and are skipped.
 */
export function documentXmlToText(xml: string): string {
  const blocks: string[] = [];
  const tables: TableState[] = [];
  // Text boxes put whole paragraphs inside a run of the outer paragraph: keep a stack.
  const outerParagraphs: string[] = [];
  let paragraph = '';
  let inText = false;
  let inTabStops = false;
  TOKEN.lastIndex = 0;
  const source = xml.replace(MC_FALLBACK, '');
  for (let m = TOKEN.exec(source); m !== null; m = TOKEN.exec(source)) {
    const [, closing, prefix, local, , selfClosing, text] = m;
    if (text !== undefined) {
      if (inText) paragraph += decodeXml(text);
      continue;
    }
    if (prefix !== 'w:') continue;
    const table = tables[tables.length - 1];
    if (closing) {
      if (local === 't') inText = false;
      else if (local === 'tabs') inTabStops = false;
      else if (local === 'p') {
        if (table) table.cellParagraphs.push(paragraph);
        else blocks.push(paragraph);
        paragraph = outerParagraphs.pop() ?? '';
      } else if (local === 'tc' && table) {
        table.cells.push(joinNonEmpty(table.cellParagraphs, ' '));
        table.cellParagraphs = [];
      } else if (local === 'tr' && table) {
        if (table.cells.some((c) => c !== '')) table.rows.push(table.cells.join('\t'));
        table.cells = [];
      } else if (local === 'tbl' && table) {
        tables.pop();
        const outer = tables[tables.length - 1];
        const rows = table.rows.join('\n');
        if (outer) outer.cellParagraphs.push(rows);
        else blocks.push(rows);
      }
      continue;
    }
    if (local === 'p' && !selfClosing) {
      outerParagraphs.push(paragraph);
      paragraph = '';
    } else if (local === 't' && !selfClosing) inText = true;
    else if (local === 'tabs' && !selfClosing) inTabStops = true;
    else if (local === 'tab' && !inTabStops) paragraph += '\t';
    else if (local === 'br' || local === 'cr') paragraph += '\n';
    else if (local === 'noBreakHyphen') paragraph += '-';
    else if (local === 'tbl' && !selfClosing) tables.push({ rows: [], cells: [], cellParagraphs: [] });
  }
  return joinNonEmpty(blocks, '\n\n');
}

function joinNonEmpty(parts: string[], separator: string): string {
  return parts.filter((p) => p.trim() !== '').join(separator);
}

function decodeXml(text: string): string {
  return text.replace(XML_ENTITY, (_m, body: string) => {
    if (body[0] !== '#') return XML_NAMED[body];
    const code = body[1] === 'x' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code > 0 && code <= MAX_CODE_POINT ? String.fromCodePoint(code) : REPLACEMENT;
  });
}
