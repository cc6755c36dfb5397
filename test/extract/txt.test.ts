import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { extractTxt } from '../../src/extract/txt.ts';
import { makeInvalidUtf8, makeUtf16, makeUtf8Bom } from '../fixtures/make.ts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

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

  it('normalises CRLF and CR line ends and drops control bytes', () => {
    expect(extractTxt(new TextEncoder().encode('a\r\nb\rcd\u0007e\tf'))).toBe('a\nb\ncde\tf');
  });

  it('refuses text with a NUL anywhere as unsupported_format (issue 23)', () => {
    for (const bytes of [
      new TextEncoder().encode(`${'word '.repeat(4000)}\u0000tail`),
      makeUtf8Bom('a\u0000b'),
      makeUtf16('a\u0000b', 'le'),
    ]) {
      expect(() => extractTxt(bytes)).toThrow(expect.objectContaining({ code: 'unsupported_format' }));
    }
  });

  it('decodes UTF-32 LE and BE with their BOMs (issue 23: read as UTF-16 with NULs before)', () => {
    const utf32 = (text: string, le: boolean) => {
      const cps = [0xfeff, ...[...text].map((c) => c.codePointAt(0) as number)];
      const view = new DataView(new ArrayBuffer(cps.length * 4));
      cps.forEach((cp, i) => view.setUint32(i * 4, cp, le));
      return new Uint8Array(view.buffer);
    };
    const text = `${SPANISH} 😀 𝐀`;
    expect(extractTxt(utf32(text, true))).toBe(text);
    expect(extractTxt(utf32(text, false))).toBe(text);
    // Surrogates, values past U+10FFFF and a trailing partial unit are U+FFFD.
    const bad = new Uint8Array([0xff, 0xfe, 0, 0, 0x41, 0, 0, 0, 0x00, 0xd8, 0, 0, 0, 0, 0x11, 0, 0x42]);
    expect(extractTxt(bad)).toBe('A\ufffd\ufffd\ufffd');
  });
});
