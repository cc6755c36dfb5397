import { ExtractError } from './errors.ts';
import { readZipDirectory } from './zipdir.ts';

/** The formats extraction understands. */
export type FileFormat = 'txt' | 'md' | 'pdf' | 'docx';

/** pdf.js accepts a header anywhere in the first 1,024 bytes (PDF 32000-1 annex H.3 note 3). */
const PDF_HEADER_WINDOW = 1024;
/** How much of a file we look at to tell text from binary. */
const TEXT_PROBE_BYTES = 8192;
/** Share of C0 control bytes (other than tab/CR/LF/FF/ESC) above which a BOM-less file is binary. */
const MAX_CONTROL_RATIO = 0.01;
const DOCX_MAIN_PART = 'word/document.xml';
const MARKDOWN_EXTENSIONS = new Set(['md', 'markdown', 'mdown', 'mkd']);
/** Extensions that promise a container: plain text under these names is a broken file. */
const CONTAINER_EXTENSIONS = new Set(['pdf', 'docx']);

/** Known binary signatures we refuse by name (images, archives, executables, old Office). */
const BINARY_SIGNATURES: ReadonlyArray<readonly [string, readonly number[]]> = [
  ['PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['JPEG image', [0xff, 0xd8, 0xff]],
  ['GIF image', [0x47, 0x49, 0x46, 0x38]],
  ['WebP/RIFF file', [0x52, 0x49, 0x46, 0x46]],
  ['gzip archive', [0x1f, 0x8b]],
  ['7z archive', [0x37, 0x7a, 0xbc, 0xaf]],
  ['RAR archive', [0x52, 0x61, 0x72, 0x21]],
  ['ELF executable', [0x7f, 0x45, 0x4c, 0x46]],
  ['legacy Office (OLE) file', [0xd0, 0xcf, 0x11, 0xe0]],
];

/** Text encoding a sniffed text file uses. */
export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be';

/** Format by content (magic bytes); the file name's extension only picks md vs txt. Throws unsupported_format. */
export function sniffFormat(bytes: Uint8Array, fileName: string): FileFormat {
  const ext = extensionOf(fileName);
  if (findPdfHeader(bytes) >= 0) return 'pdf';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    return sniffZip(bytes);
  }
  for (const [label, signature] of BINARY_SIGNATURES) {
    if (startsWith(bytes, signature)) throw new ExtractError('unsupported_format', `${label} is not a text document`);
  }
  if (sniffTextEncoding(bytes) === null) throw new ExtractError('unsupported_format', 'binary file of unknown format');
  if (CONTAINER_EXTENSIONS.has(ext) && bytes.length > 0) {
    throw new ExtractError('corrupt_file', `the file is named .${ext} but holds no ${ext.toUpperCase()} data`);
  }
  return MARKDOWN_EXTENSIONS.has(ext) ? 'md' : 'txt';
}

/**
 * Byte order marks, in the order they are tried: UTF-32 before UTF-16, since FF FE 00 00 also starts
 * like a UTF-16LE BOM (followed by a NUL, never text).
 */
const BYTE_ORDER_MARKS: readonly (readonly [TextEncodingName, readonly number[]])[] = [
  ['utf-8', [0xef, 0xbb, 0xbf]],
  ['utf-32le', [0xff, 0xfe, 0x00, 0x00]],
  ['utf-32be', [0x00, 0x00, 0xfe, 0xff]],
  ['utf-16le', [0xff, 0xfe]],
  ['utf-16be', [0xfe, 0xff]],
];

/** The encoding and byte length of the byte order mark `bytes` start with, or null. */
export function byteOrderMark(bytes: Uint8Array): { encoding: TextEncodingName; length: number } | null {
  for (const [encoding, mark] of BYTE_ORDER_MARKS) if (startsWith(bytes, mark)) return { encoding, length: mark.length };
  return null;
}

/** Encoding of a text file (BOM first, then a NUL-pattern guess for BOM-less UTF-16), or null if binary. */
export function sniffTextEncoding(bytes: Uint8Array): TextEncodingName | null {
  const bom = byteOrderMark(bytes);
  if (bom) return bom.encoding;
  const probe = bytes.subarray(0, TEXT_PROBE_BYTES);
  let evenNuls = 0;
  let oddNuls = 0;
  let controls = 0;
  for (let i = 0; i < probe.length; i++) {
    const b = probe[i];
    if (b === 0) {
      if (i % 2 === 0) evenNuls++;
      else oddNuls++;
    } else if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b) {
      controls++;
    }
  }
  const half = probe.length / 2;
  // ASCII-range UTF-16 without a BOM: every other byte is NUL.
  if (half >= 2 && oddNuls >= half * 0.9 && evenNuls === 0) return 'utf-16le';
  if (half >= 2 && evenNuls >= half * 0.9 && oddNuls === 0) return 'utf-16be';
  if (evenNuls + oddNuls > 0 || controls > probe.length * MAX_CONTROL_RATIO) return null;
  return 'utf-8';
}

/** Offset of `%PDF-` within the header window, or -1. */
export function findPdfHeader(bytes: Uint8Array): number {
  const end = Math.min(bytes.length, PDF_HEADER_WINDOW) - 5;
  for (let i = 0; i <= end; i++) {
    if (bytes[i] === 0x25 && bytes[i + 1] === 0x50 && bytes[i + 2] === 0x44 && bytes[i + 3] === 0x46 && bytes[i + 4] === 0x2d) {
      return i;
    }
  }
  return -1;
}

function sniffZip(bytes: Uint8Array): FileFormat {
  const entries = readZipDirectory(bytes);
  if (entries === null) throw new ExtractError('corrupt_file', 'the zip directory is unreadable');
  if (entries.some((e) => e.name === DOCX_MAIN_PART)) return 'docx';
  throw new ExtractError('unsupported_format', 'a zip archive that is not a DOCX document');
}

function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  if (bytes.length < signature.length) return false;
  return signature.every((b, i) => bytes[i] === b);
}
