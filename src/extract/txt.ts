import { ExtractError } from './errors.ts';
import { byteOrderMark, sniffTextEncoding } from './sniff.ts';

/**
 * Plain-text file bytes -> text. UTF-8 with or without BOM, UTF-16 LE/BE with BOM (or BOM-less
 * ASCII-range UTF-16), UTF-32 LE/BE with BOM; invalid sequences become U+FFFD; line ends normalised
 * to \n. Throws unsupported_format for text holding a NUL character anywhere (a binary file: the
 * format sniffer only looks at the first 8 KB, and a UTF-32 file read as UTF-16 was scored with a
 * NUL between letters).
 */
export function extractTxt(bytes: Uint8Array): string {
  const bom = byteOrderMark(bytes);
  const encoding = bom?.encoding ?? sniffTextEncoding(bytes) ?? 'utf-8';
  const body = bom ? bytes.subarray(bom.length) : bytes;
  // ignoreBOM: we strip it ourselves, so a second BOM-looking sequence is kept as text.
  const text =
    encoding === 'utf-32le' || encoding === 'utf-32be'
      ? decodeUtf32(body, encoding === 'utf-32le')
      : new TextDecoder(encoding, { fatal: false, ignoreBOM: true }).decode(body);
  if (text.includes('\u0000')) throw new ExtractError('unsupported_format', 'the text holds NUL characters: a binary file');
  return normalizeLineEnds(text);
}

/** Code points decoded per String.fromCodePoint call (its arguments go on the stack). */
const UTF32_CHUNK = 8192;

/**
 * UTF-32 (TextDecoder has no UTF-32 in the WHATWG Encoding standard): surrogates, values over
 * U+10FFFF and a trailing partial unit become U+FFFD.
 */
export function decodeUtf32(bytes: Uint8Array, littleEndian: boolean): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const units = Math.floor(bytes.byteLength / 4);
  const parts: string[] = [];
  const chunk: number[] = [];
  for (let i = 0; i < units; i++) {
    const cp = view.getUint32(i * 4, littleEndian);
    chunk.push(cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? 0xfffd : cp);
    if (chunk.length === UTF32_CHUNK) {
      parts.push(String.fromCodePoint(...chunk));
      chunk.length = 0;
    }
  }
  if (bytes.byteLength % 4 !== 0) chunk.push(0xfffd);
  parts.push(String.fromCodePoint(...chunk));
  return parts.join('');
}

/** CRLF and lone CR -> LF; other C0 controls except tab/LF/FF dropped. */
export function normalizeLineEnds(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g, '');
}
