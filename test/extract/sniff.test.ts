import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { sniffFormat } from '../../src/extract/sniff.ts';
import { ExtractError } from '../../src/extract/errors.ts';
import { makeDocx, makePdf, makePlainZip, makePng, makeUtf16, makeUtf8Bom } from '../fixtures/make.ts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const utf8 = (s: string) => new TextEncoder().encode(s);

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof ExtractError ? error.code : 'not-an-ExtractError';
  }
  return undefined;
}

describe('sniffFormat', () => {
  it('decides PDF and DOCX by content, whatever the name says', async () => {
    expect(sniffFormat(makePdf(['x']), 'essay.txt')).toBe('pdf');
    expect(sniffFormat(await makeDocx(['x']), 'essay.bin')).toBe('docx');
  });

  it('uses the extension only to tell Markdown from plain text', () => {
    expect(sniffFormat(utf8('# Title'), 'notes.md')).toBe('md');
    expect(sniffFormat(utf8('# Title'), 'NOTES.MARKDOWN')).toBe('md');
    expect(sniffFormat(utf8('# Title'), 'notes.txt')).toBe('txt');
    expect(sniffFormat(utf8('plain'), 'no-extension')).toBe('txt');
  });

  it('recognises UTF-16 and UTF-8 BOMs as text', () => {
    expect(sniffFormat(makeUtf16('hola', 'le'), 'a.txt')).toBe('txt');
    expect(sniffFormat(makeUtf16('hola', 'be'), 'a.md')).toBe('md');
    expect(sniffFormat(makeUtf8Bom('hola'), 'a.txt')).toBe('txt');
  });

  it('refuses a PNG renamed .pdf as unsupported_format', () => {
    expect(codeOf(() => sniffFormat(makePng(), 'scan.pdf'))).toBe('unsupported_format');
  });

  it('refuses JPEG, GIF and unknown binary data', () => {
    expect(codeOf(() => sniffFormat(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2]), 'a.txt'))).toBe('unsupported_format');
    expect(codeOf(() => sniffFormat(utf8('GIF89a....'), 'a.txt'))).toBe('unsupported_format');
    expect(codeOf(() => sniffFormat(new Uint8Array([1, 2, 3, 0, 5, 6, 7, 8]), 'a.txt'))).toBe('unsupported_format');
  });

  it('refuses a zip that is not a DOCX', async () => {
    const zip = await makePlainZip();
    expect(codeOf(() => sniffFormat(zip, 'a.docx'))).toBe('unsupported_format');
  });

  it('calls plain text named .pdf or .docx a corrupt file', () => {
    expect(codeOf(() => sniffFormat(utf8('not really a pdf'), 'essay.pdf'))).toBe('corrupt_file');
    expect(codeOf(() => sniffFormat(utf8('not really a docx'), 'essay.docx'))).toBe('corrupt_file');
  });
});
