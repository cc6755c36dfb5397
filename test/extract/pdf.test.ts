import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { extractPdf } from '../../src/extract/pdf.ts';
import { joinLines, pageParagraphs } from '../../src/extract/pdf-layout.ts';
import { DEFAULT_EXTRACT_LIMITS } from '../../src/extract/limits.ts';
import { makePdf, makeTruncatedPdf, SAMPLE_PDF_PAGES, SAMPLE_PDF_TEXT } from '../fixtures/make.ts';
import { codeOf } from './code-of';

setDefaultTimeout(SUITE_TIMEOUT_MS);

describe('extractPdf', () => {
  it('reads every page in order, joins lines, rejoins hyphenated words and keeps paragraph breaks', async () => {
    expect(await extractPdf(makePdf(SAMPLE_PDF_PAGES), DEFAULT_EXTRACT_LIMITS)).toBe(SAMPLE_PDF_TEXT);
  });

  it('does not consume the caller’s bytes (pdf.js detaches what it gets)', async () => {
    const bytes = makePdf(['Hello.']);
    await extractPdf(bytes, DEFAULT_EXTRACT_LIMITS);
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(await extractPdf(bytes, DEFAULT_EXTRACT_LIMITS)).toBe('Hello.');
  });

  it('answers encrypted_pdf for a PDF with an /Encrypt dictionary', async () => {
    expect(await codeOf(extractPdf(makePdf(['secret'], { encrypted: true }), DEFAULT_EXTRACT_LIMITS))).toBe('encrypted_pdf');
  });

  it('answers corrupt_file for a truncated PDF and for garbage after the header', async () => {
    expect(await codeOf(extractPdf(makeTruncatedPdf(makePdf(SAMPLE_PDF_PAGES)), DEFAULT_EXTRACT_LIMITS))).toBe('corrupt_file');
    const garbage = new TextEncoder().encode(`%PDF-1.7\n${'x'.repeat(400)}`);
    expect(await codeOf(extractPdf(garbage, DEFAULT_EXTRACT_LIMITS))).toBe('corrupt_file');
  });

  it('answers extract_limit naming the page limit (not the byte limit) past maxPdfPages', async () => {
    const pdf = makePdf(['one', 'two', 'three']);
    const error = await extractPdf(pdf, { ...DEFAULT_EXTRACT_LIMITS, maxPdfPages: 2 }).catch((e) => e);
    expect(error).toMatchObject({ code: 'extract_limit', status: 413, params: { kind: 'pdf_pages', limit: 2, actual: 3 } });
  });

  it('returns an empty string for pages without a text layer', async () => {
    expect(await extractPdf(makePdf(['', '']), DEFAULT_EXTRACT_LIMITS)).toBe('');
  });
});

describe('pdf layout', () => {
  const item = (str: string, x: number, y: number, width = str.length * 5, hasEOL = false) => ({
    str,
    transform: [10, 0, 0, 10, x, y],
    width,
    height: 10,
    hasEOL,
  });

  it('puts a space between items separated by a gap, none between touching items', () => {
    expect(pageParagraphs([item('Hel', 0, 100, 15), item('lo', 15, 100, 10), item('world', 40, 100)])).toEqual(['Hello world']);
  });

  it('splits paragraphs where the line gap grows', () => {
    const lines = [item('a', 0, 100), item('b', 0, 88), item('c', 0, 76), item('d', 0, 50)];
    expect(pageParagraphs(lines)).toEqual(['a b c', 'd']);
  });

  it('rejoins only letter-hyphen + lowercase', () => {
    expect(joinLines('extrac-', 'tion')).toBe('extraction');
    expect(joinLines('the year 2020-', '2021')).toBe('the year 2020- 2021');
    expect(joinLines('North-', 'East')).toBe('North- East');
  });
});
