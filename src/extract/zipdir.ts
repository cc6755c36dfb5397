/**
 * Reads a zip's central directory without inflating anything (APPNOTE.TXT 4.3.12, 4.3.16).
 * Used to sniff DOCX and to refuse zip bombs from their declared sizes.
 */

/** One central-directory entry: name and the sizes it declares. */
export type ZipEntryInfo = { name: string; compressedSize: number; uncompressedSize: number };

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const EOCD_MIN_BYTES = 22;
/** The EOCD ends the file, after a comment of at most 65,535 bytes. */
const EOCD_MAX_SEARCH = EOCD_MIN_BYTES + 0xffff;
const CENTRAL_HEADER_BYTES = 46;
/** A 32-bit size of 0xFFFFFFFF means "see the ZIP64 extra field": at least 4 GiB. */
export const ZIP64_MARKER = 0xffffffff;

/** Entries of the zip's central directory, or null when the bytes are not a readable zip. */
export function readZipDirectory(bytes: Uint8Array): ZipEntryInfo[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEocd(view);
  if (eocd < 0) return null;
  const count = view.getUint16(eocd + 10, true);
  const dirSize = view.getUint32(eocd + 12, true);
  const dirOffset = view.getUint32(eocd + 16, true);
  if (dirOffset === ZIP64_MARKER || dirOffset + dirSize > eocd) return null;
  const decoder = new TextDecoder();
  const entries: ZipEntryInfo[] = [];
  let at = dirOffset;
  for (let i = 0; i < count; i++) {
    if (at + CENTRAL_HEADER_BYTES > eocd || view.getUint32(at, true) !== CENTRAL_SIGNATURE) return null;
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const nameStart = at + CENTRAL_HEADER_BYTES;
    if (nameStart + nameLength > eocd) return null;
    entries.push({
      name: decoder.decode(bytes.subarray(nameStart, nameStart + nameLength)),
      compressedSize: view.getUint32(at + 20, true),
      uncompressedSize: view.getUint32(at + 24, true),
    });
    at = nameStart + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Sum of the uncompressed sizes the directory declares (ZIP64 markers count as 4 GiB each). */
export function declaredUncompressedBytes(entries: readonly ZipEntryInfo[]): number {
  let total = 0;
  for (const entry of entries) total += entry.uncompressedSize;
  return total;
}

function findEocd(view: DataView): number {
  const last = view.byteLength - EOCD_MIN_BYTES;
  const first = Math.max(0, view.byteLength - EOCD_MAX_SEARCH);
  for (let at = last; at >= first; at--) {
    if (view.getUint32(at, true) === EOCD_SIGNATURE) return at;
  }
  return -1;
}
