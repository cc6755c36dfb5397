import { describe, expect, it } from 'bun:test';
import { extractTxt } from '../../src/extract/txt.ts';
import { makeInvalidUtf8, makeUtf16, makeUtf8Bom } from '../fixtures/make.ts';

const SPANISH = 'El pingüino comió jamón en Año Nuevo.\nSegunda línea — fin.';

describe('extractTxt', () => {
  it('decodes UTF-8 without a BOM', () => {
    expect(extractTxt(new TextEncoder().encode(SPANISH))).toBe(SPANISH);
  });

  it('strips a UTF-8 BOM', () => {
    expect(extractTxt(makeUtf8Bom(SPANISH))).toBe(SPANISH);
  });

  it('decodes UTF-16 LE and BE with their BOMs', () => {
    expect(extractTxt(makeUtf16(SPANISH, 'le'))).toBe(SPANISH);
    expect(extractTxt(makeUtf16(SPANISH, 'be'))).toBe(SPANISH);
  });

  it('decodes BOM-less ASCII-range UTF-16 by its NUL pattern', () => {
    expect(extractTxt(makeUtf16('plain words here', 'le').subarray(2))).toBe('plain words here');
    expect(extractTxt(makeUtf16('plain words here', 'be').subarray(2))).toBe('plain words here');
  });

  it('replaces invalid UTF-8 bytes with U+FFFD instead of failing', () => {
    expect(extractTxt(makeInvalidUtf8('abc', 'def'))).toBe('abc\ufffd\ufffddef');
  });

  it('replaces an odd trailing UTF-16 byte', () => {
    const bytes = new Uint8Array([...makeUtf16('ab', 'le'), 0x41]);
    expect(extractTxt(bytes)).toBe('ab\ufffd');
  });

  it('normalises CRLF and CR line ends and drops NUL/control bytes', () => {
    expect(extractTxt(new TextEncoder().encode('a\r\nb\rc\u0000d\u0007e\tf'))).toBe('a\nb\ncde\tf');
  });
});
