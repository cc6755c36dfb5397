import JSZip from 'jszip';
import { ExtractError } from './errors.ts';
import type { ExtractLimits } from './limits.ts';
import { declaredUncompressedBytes, readZipDirectory } from './zipdir.ts';
import { documentXmlToText } from './docx-xml.ts';

const DOCUMENT_PART = 'word/document.xml';
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
 * as a stream that stops as soon as it exceeds the limit (in case the directory lies).
 */
export async function extractDocx(bytes: Uint8Array, limits: ExtractLimits): Promise<string> {
  const entries = readZipDirectory(bytes);
  if (entries === null) throw new ExtractError('corrupt_file', 'the DOCX zip directory is unreadable');
  const declared = declaredUncompressedBytes(entries);
  if (declared > limits.maxDocxUncompressedBytes) {
    throw new ExtractError(
      'file_too_large',
      `the DOCX declares ${declared} uncompressed bytes; the limit is ${limits.maxDocxUncompressedBytes}`,
    );
  }
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch (error) {
    throw new ExtractError('corrupt_file', `unreadable DOCX: ${(error as Error).message}`);
  }
  const part = zip.file(DOCUMENT_PART);
  if (part === null) throw new ExtractError('corrupt_file', `the DOCX has no ${DOCUMENT_PART}`);
  const xml = await inflateCapped(part, limits.maxDocxUncompressedBytes);
  return documentXmlToText(xml);
}

function inflateCapped(part: JSZip.JSZipObject, cap: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    let done = false;
    const stream = (part as unknown as { internalStream(t: 'uint8array'): StreamHelper }).internalStream('uint8array');
    stream
      .on('data', (chunk) => {
        if (done) return;
        total += chunk.length;
        if (total > cap) {
          done = true;
          stream.pause();
          reject(new ExtractError('file_too_large', `the DOCX body inflates past ${cap} bytes`));
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
