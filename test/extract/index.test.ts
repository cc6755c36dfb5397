import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { extractText, DEFAULT_EXTRACT_LIMITS, type ExtractErrorCode } from '../../src/extract/index.ts';
import {
  makeDocx,
  makeEmptyFile,
  makeInvalidUtf8,
  makePdf,
  makePng,
  makeTruncatedPdf,
  makeUtf16,
  makeZipBombDocx,
  SAMPLE_MARKDOWN,
  SAMPLE_MARKDOWN_TEXT,
} from '../fixtures/make.ts';
import { codeOf as codeOfPromise } from './code-of';

setDefaultTimeout(SUITE_TIMEOUT_MS);

function codeOf(bytes: Uint8Array, name: string, limits = DEFAULT_EXTRACT_LIMITS): Promise<ExtractErrorCode | string> {
  return codeOfPromise(extractText(bytes, name, limits));
}

describe('extractText', () => {
  it('returns format and trimmed text for every supported format', async () => {
    expect(await extractText(makeUtf16('  Hola, señora.\r\n', 'be'), 'carta.txt')).toEqual({ format: 'txt', text: 'Hola, señora.' });
    expect(await extractText(new TextEncoder().encode(SAMPLE_MARKDOWN), 'essay.md')).toEqual({ format: 'md', text: SAMPLE_MARKDOWN_TEXT });
    expect(await extractText(await makeDocx(['Uno.', 'Dos.']), 'a.docx')).toEqual({ format: 'docx', text: 'Uno.\n\nDos.' });
    expect(await extractText(makePdf(['Page one.', 'Page two.']), 'a.pdf')).toEqual({ format: 'pdf', text: 'Page one.\n\nPage two.' });
  });

  it('never fails on invalid UTF-8', async () => {
    expect((await extractText(makeInvalidUtf8('Texto ', ' roto'), 'a.txt')).text).toBe('Texto \ufffd\ufffd roto');
  });

  it('maps every hostile input to its stable code', async () => {
    expect(await codeOf(makePng(), 'photo.pdf')).toBe('unsupported_format');
    expect(await codeOf(makeTruncatedPdf(makePdf(['a', 'b'])), 'a.pdf')).toBe('corrupt_file');
    expect(await codeOf(makePdf(['x'], { encrypted: true }), 'a.pdf')).toBe('encrypted_pdf');
    expect(await codeOf(makePdf(['']), 'scan.pdf')).toBe('no_text');
    expect(await codeOf(makeEmptyFile(), 'empty.txt')).toBe('no_text');
    expect(await codeOf(new TextEncoder().encode(' \n\t '), 'blank.txt')).toBe('no_text');
    expect(
      await codeOf(await makeZipBombDocx(2 * 1024 * 1024), 'bomb.docx', {
        ...DEFAULT_EXTRACT_LIMITS,
        maxDocxUncompressedBytes: 1024 * 1024,
      }),
    ).toBe('extract_limit');
  });

  it('refuses a file over maxFileBytes before looking at it, quoting that limit', async () => {
    const error = await extractText(new TextEncoder().encode('x'.repeat(101)), 'a.txt', {
      ...DEFAULT_EXTRACT_LIMITS,
      maxFileBytes: 100,
    }).catch((e) => e);
    expect(error).toMatchObject({ code: 'file_too_large', status: 413, params: { limit: 100, actual: 101 } });
  });

  it('gives each error an HTTP status', async () => {
    const error = await extractText(makePng(), 'a.pdf').catch((e) => e);
    expect(error).toMatchObject({ name: 'ExtractError', code: 'unsupported_format', status: 415 });
  });
});
