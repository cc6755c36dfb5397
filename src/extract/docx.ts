import JSZip from 'jszip';
import { ExtractError, limitError } from './errors.ts';
import { HeapGuard } from './heap-guard.ts';
import type { ExtractLimits, ExtractRunOptions } from './limits.ts';
import { declaredUncompressedBytes, readZipDirectory } from './zipdir.ts';
import { documentXmlToText } from './docx-xml.ts';

const DOCUMENT_PART = 'word/document.xml';
/** Check the thread's heap once per this many inflated bytes (heapSize() is not free). */
const HEAP_CHECK_BYTES = 1024 * 1024;
/** jszip's internal streaming reader (documented in jszip's API as `internalStream`). */
type StreamHelper = {
  on(event: 'data', cb: (chunk: Uint8Array) => void): StreamHelper;
  on(event: 'error', cb: (e: Error) => void): StreamHelper;
  on(event: 'end', cb: () => void): StreamHelper;
  pause(): StreamHelper;
  resume(): StreamHelper;
};

/**
 * DOCX bytes -> body text (see documentXmlToText for the layout). Only the main body is read:
 * headers, footers, footnotes, endnotes and comments are NOT included (page furniture and
 * side notes, not the submission's prose). Zip-bomb guard: the sizes declared in the central
 * directory are summed and checked BEFORE anything is inflated, and the body part is inflated
 * as a stream that stops as soon as it exceeds the limit (in case the directory lies). Both
 * throw extract_limit (`docx_inflated_bytes`); more than maxTextChars of text is `text_chars`.
 */
export async function extractDocx(bytes: Uint8Array, limits: ExtractLimits, options: ExtractRunOptions = {}): Promise<string> {
  const entries = readZipDirectory(bytes);
  if (entries === null) throw new ExtractError('corrupt_file', 'the DOCX zip directory is unreadable');
  const declared = declaredUncompressedBytes(entries);
  const cap = limits.maxDocxUncompressedBytes;
  if (declared > cap) {
    throw limitError('docx_inflated_bytes', cap, `the DOCX declares ${declared} uncompressed bytes; the limit is ${cap}`, {
      actual: declared,
    });
  }
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch (error) {
    throw new ExtractError('corrupt_file', `unreadable DOCX: ${(error as Error).message}`);
  }
  const part = zip.file(DOCUMENT_PART);
  if (part === null) throw new ExtractError('corrupt_file', `the DOCX has no ${DOCUMENT_PART}`);
  const heap = options.heapLimitBytes === undefined ? undefined : new HeapGuard(options.heapLimitBytes);
  const xml = await inflateCapped(part, cap, heap);
  return documentXmlToText(xml, limits.maxTextChars);
}

function inflateCapped(part: JSZip.JSZipObject, cap: number, heap?: HeapGuard): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    let done = false;
    const stream = (part as unknown as { internalStream(t: 'uint8array'): StreamHelper }).internalStream('uint8array');
    stream
      .on('data', (chunk) => {
        if (done) return;
        const before = total;
        total += chunk.length;
        try {
          if (total > cap) throw limitError('docx_inflated_bytes', cap, `the DOCX body inflates past ${cap} bytes`);
          if (Math.floor(total / HEAP_CHECK_BYTES) > Math.floor(before / HEAP_CHECK_BYTES)) heap?.check();
        } catch (error) {
          done = true;
          stream.pause();
          reject(error);
          return;
        }
        chunks.push(chunk);
      })
      .on('error', (error) => {
        if (done) return;
        done = true;
        reject(new ExtractError('corrupt_file', `unreadable DOCX body: ${error.message}`));
      })
      .on('end', () => {
        if (done) return;
        done = true;
        resolve(new TextDecoder().decode(Buffer.concat(chunks)));
      })
      .resume();
  });
}
