import { sniffTextEncoding, type TextEncodingName } from './sniff.ts';

const BOM_BYTES: Record<TextEncodingName, number> = { 'utf-8': 3, 'utf-16le': 2, 'utf-16be': 2 };

/**
 * Plain-text file bytes -> text. UTF-8 with or without BOM, UTF-16 LE/BE with BOM (or BOM-less
 * ASCII-range UTF-16); invalid sequences become U+FFFD; line ends normalised to \n. Never throws.
 */
export function extractTxt(bytes: Uint8Array): string {
  const encoding = sniffTextEncoding(bytes) ?? 'utf-8';
  const hasBom = bytes.length >= BOM_BYTES[encoding] && startsWithBom(bytes, encoding);
  // ignoreBOM: we strip it ourselves, so a second BOM-looking sequence is kept as text.
  const decoder = new TextDecoder(encoding, { fatal: false, ignoreBOM: true });
  const text = decoder.decode(hasBom ? bytes.subarray(BOM_BYTES[encoding]) : bytes);
  return normalizeLineEnds(text);
}

/** CRLF and lone CR -> LF; NUL and other C0 controls except tab/LF/FF dropped. */
export function normalizeLineEnds(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g, '');
}

function startsWithBom(bytes: Uint8Array, encoding: TextEncodingName): boolean {
  if (encoding === 'utf-8') return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  if (encoding === 'utf-16le') return bytes[0] === 0xff && bytes[1] === 0xfe;
  return bytes[0] === 0xfe && bytes[1] === 0xff;
}
