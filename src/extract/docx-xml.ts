/** WordprocessingML (ECMA-376 part 1, 17.3) body XML -> text. */
import { limitError } from './errors.ts';
import { decodeXmlText, XmlCursor } from './xml-scan.ts';

/** One table being read; tables nest inside cells. */
type TableState = { rows: string[]; cells: string[]; cellParagraphs: string[] };

const WORD_PREFIX = 'w:';
const MC_PREFIX = 'mc:';
/** Text boxes are stored twice (mc:Choice and the VML mc:Fallback): keep only the first copy. */
const MC_FALLBACK = 'Fallback';

/**
 * The text of `word/document.xml`: paragraphs in order separated by a blank line, `w:tab` as
 * a tab, `w:br`/`w:cr` as a line break, each table row on its own line with cells separated by
 * tabs (paragraphs inside one cell joined by a space). Deleted text (`w:delText`) and field
 * codes (`w:instrText`) are not text runs and are skipped. Linear in the XML's length whatever
 * its shape (xml-scan.ts); throws extract_limit (`text_chars`) past `maxChars` characters.
 */
export function documentXmlToText(xml: string, maxChars = Number.POSITIVE_INFINITY): string {
  const blocks: string[] = [];
  const tables: TableState[] = [];
  // Text boxes put whole paragraphs inside a run of the outer paragraph: keep a stack.
  const outerParagraphs: string[] = [];
  let paragraph = '';
  let chars = 0;
  let inText = false;
  let inTabStops = false;
  let fallbackDepth = 0;
  const append = (text: string) => {
    chars += text.length;
    if (chars > maxChars) throw limitError('text_chars', maxChars, `the DOCX has more than ${maxChars} characters of text`);
    paragraph += text;
  };
  const cursor = new XmlCursor(xml);
  while (cursor.next()) {
    const { kind, prefix, local } = cursor;
    if (prefix === MC_PREFIX && local === MC_FALLBACK && !cursor.selfClosing) {
      if (kind === 'open') fallbackDepth++;
      else if (kind === 'close' && fallbackDepth > 0) fallbackDepth--;
      continue;
    }
    if (fallbackDepth > 0) continue;
    if (kind === 'text') {
      if (inText) append(cursor.cdata ? cursor.text : decodeXmlText(cursor.text));
      continue;
    }
    if (prefix !== WORD_PREFIX) continue;
    const table = tables[tables.length - 1];
    if (kind === 'close') {
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
    const selfClosing = cursor.selfClosing;
    if (local === 'p' && !selfClosing) {
      outerParagraphs.push(paragraph);
      paragraph = '';
    } else if (local === 't' && !selfClosing) inText = true;
    else if (local === 'tabs' && !selfClosing) inTabStops = true;
    else if (local === 'tab' && !inTabStops) append('\t');
    else if (local === 'br' || local === 'cr') append('\n');
    else if (local === 'noBreakHyphen') append('-');
    else if (local === 'tbl' && !selfClosing) tables.push({ rows: [], cells: [], cellParagraphs: [] });
  }
  // Malformed input may end inside paragraphs and tables: keep what they hold, as if closed.
  // (Loops, not push(...list): a spread of a million unclosed paragraphs overflows the stack.)
  const unclosed = [...tables.flatMap((t) => [t.rows, t.cells, t.cellParagraphs]), outerParagraphs, [paragraph]];
  for (const list of unclosed) for (const text of list) blocks.push(text);
  return joinNonEmpty(blocks, '\n\n');
}

function joinNonEmpty(parts: string[], separator: string): string {
  return parts.filter((p) => p.trim() !== '').join(separator);
}
