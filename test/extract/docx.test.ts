import { afterEach, describe, expect, it, setDefaultTimeout, spyOn } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import JSZip from 'jszip';
import { extractDocx } from '../../src/extract/docx.ts';
import { documentXmlToText } from '../../src/extract/docx-xml.ts';
import { ExtractError } from '../../src/extract/errors.ts';
import { DEFAULT_EXTRACT_LIMITS } from '../../src/extract/limits.ts';
import { makeDocx, makeSampleDocx, makeZipBombDocx, SAMPLE_DOCX_TEXT } from '../fixtures/make.ts';
import { codeOf } from './code-of';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const MB = 1024 * 1024;
const SMALL_LIMITS = { ...DEFAULT_EXTRACT_LIMITS, maxDocxUncompressedBytes: 1 * MB };

describe('extractDocx', () => {
  afterEach(() => {
    // spyOn patches the shared JSZip object; undo it for the next test.
    (JSZip.loadAsync as unknown as { mockRestore?: () => void }).mockRestore?.();
  });

  it('reads Spanish body paragraphs in order, with tabs, line breaks and a table', async () => {
    expect(await extractDocx(await makeSampleDocx(), DEFAULT_EXTRACT_LIMITS)).toBe(SAMPLE_DOCX_TEXT);
  });

  it('leaves out headers and footnotes (body only)', async () => {
    const docx = await makeDocx(['Cuerpo del texto.'], undefined, { header: 'Colegio San José', footnote: 'Nota al pie.' });
    expect(await extractDocx(docx, DEFAULT_EXTRACT_LIMITS)).toBe('Cuerpo del texto.');
  });

  it('skips deleted text, field codes, tab-stop definitions and the VML fallback copy of text boxes', () => {
    const xml =
      '<w:body><w:p><w:pPr><w:tabs><w:tab w:val="left"/></w:tabs></w:pPr>' +
      '<w:r><w:t>kept</w:t></w:r><w:del><w:r><w:delText>deleted</w:delText></w:r></w:del>' +
      '<w:r><w:instrText>PAGE</w:instrText></w:r>' +
      '<mc:AlternateContent><mc:Choice><w:txbxContent><w:p><w:r><w:t>box</w:t></w:r></w:p></w:txbxContent></mc:Choice>' +
      '<mc:Fallback><w:txbxContent><w:p><w:r><w:t>box</w:t></w:r></w:p></w:txbxContent></mc:Fallback></mc:AlternateContent>' +
      '</w:p></w:body>';
    expect(documentXmlToText(xml)).toBe('box\n\nkept');
  });

  it('flattens a nested table into its outer cell', () => {
    const cell = (t: string) => `<w:tc><w:p><w:r><w:t>${t}</w:t></w:r></w:p></w:tc>`;
    const inner = `<w:tbl><w:tr>${cell('x')}${cell('y')}</w:tr></w:tbl>`;
    const xml = `<w:tbl><w:tr>${cell('a')}<w:tc>${inner}<w:p/></w:tc></w:tr></w:tbl>`;
    expect(documentXmlToText(xml)).toBe('a\tx\ty');
  });

  it('refuses a zip bomb from its declared sizes BEFORE inflating anything', async () => {
    const bomb = await makeZipBombDocx(2 * MB);
    expect(bomb.length).toBeLessThan(20_000);
    const loadAsync = spyOn(JSZip, 'loadAsync');
    const error = await extractDocx(bomb, SMALL_LIMITS).catch((e) => e);
    expect(error).toBeInstanceOf(ExtractError);
    expect(error).toMatchObject({ code: 'extract_limit', params: { kind: 'docx_inflated_bytes', limit: 1 * MB } });
    expect(error.params.actual).toBeGreaterThan(2 * MB);
    expect(error.message).toContain('declares');
    expect(loadAsync).not.toHaveBeenCalled();
  });

  it('refuses the default 60 MB bomb under the default 50 MB limit', async () => {
    const bomb = await makeZipBombDocx();
    expect(await codeOf(extractDocx(bomb, DEFAULT_EXTRACT_LIMITS))).toBe('extract_limit');
  });

  it('stops inflating when the directory lies about the size', async () => {
    const liar = await makeZipBombDocx(4 * MB, 1000);
    const error = await extractDocx(liar, SMALL_LIMITS).catch((e) => e);
    expect(error).toMatchObject({ code: 'extract_limit', params: { kind: 'docx_inflated_bytes', limit: 1 * MB } });
    expect(error.message).toContain('inflates past');
  });

  it('calls a zip with a broken directory corrupt_file', async () => {
    const docx = await makeDocx(['texto']);
    expect(await codeOf(extractDocx(docx.slice(0, docx.length - 30), DEFAULT_EXTRACT_LIMITS))).toBe('corrupt_file');
  });
});
