import { ExtractError } from './errors.ts';
import { DEFAULT_EXTRACT_LIMITS, type ExtractLimits, type ExtractRunOptions } from './limits.ts';
import { sniffFormat, type FileFormat } from './sniff.ts';
import { extractTxt } from './txt.ts';
import { extractMd } from './md.ts';
import { extractDocx } from './docx.ts';
import { extractPdf } from './pdf.ts';
import { checkSentences } from './sentences.ts';
import { limitError } from './errors.ts';

export { ExtractError, EXTRACT_ERROR_CODES, EXTRACT_ERROR_STATUS, type ExtractErrorCode, type ExtractErrorParams } from './errors.ts';
export { DEFAULT_EXTRACT_LIMITS, type ExtractLimitKind, type ExtractLimits, type ExtractRunOptions } from './limits.ts';
export { sniffFormat, type FileFormat } from './sniff.ts';

/** What extraction returns: the detected format and the text a reader sees. */
export type ExtractResult = { format: FileFormat; text: string };

/**
 * Formats cheap enough to extract on the main thread (one native decode); the rest go to the
 * worker pool. Markdown is parsed in linear time but is still ~100 ns a character of hostile
 * markup (a 10 MB file: ~1 s), so it runs off the event loop like PDF and DOCX.
 */
export const INLINE_FORMATS: ReadonlySet<FileFormat> = new Set(['txt']);

/**
 * Bytes -> text for any supported format, in this thread. Throws ExtractError: file_too_large
 * (bytes over maxFileBytes), extract_limit (a limit hit while reading: PDF pages, inflated
 * bytes, operators or text per page, DOCX inflated size, text per file), unsupported_format,
 * corrupt_file, encrypted_pdf, no_text (nothing but whitespace, e.g. a scanned PDF or an
 * empty file). PDF and DOCX block the event loop and have no time limit here: servers and the
 * CLI use ExtractPool instead.
 */
export async function extractText(
  bytes: Uint8Array,
  fileName: string,
  limits: ExtractLimits = DEFAULT_EXTRACT_LIMITS,
): Promise<ExtractResult> {
  const format = checkAndSniff(bytes, fileName, limits);
  const text = await extractFormat(format, bytes, limits);
  return finish(format, text, limits);
}

/** Size check + format sniffing, the cheap part done before a task is queued. */
export function checkAndSniff(bytes: Uint8Array, fileName: string, limits: ExtractLimits): FileFormat {
  if (bytes.byteLength > limits.maxFileBytes) {
    throw new ExtractError('file_too_large', `the file has ${bytes.byteLength} bytes; the limit is ${limits.maxFileBytes}`, {
      limit: limits.maxFileBytes,
      actual: bytes.byteLength,
    });
  }
  if (bytes.byteLength === 0) throw new ExtractError('no_text', 'the file is empty');
  return sniffFormat(bytes, fileName);
}

/** Runs the extractor for an already sniffed format (no size or empty-text checks). */
export async function extractFormat(
  format: FileFormat,
  bytes: Uint8Array,
  limits: ExtractLimits,
  options: ExtractRunOptions = {},
): Promise<string> {
  switch (format) {
    case 'txt':
      return extractTxt(bytes);
    case 'md':
      return extractMd(bytes);
    case 'docx':
      return extractDocx(bytes, limits, options);
    case 'pdf':
      // pdf.js itself is imported on first use (pdfjs.ts): TXT/MD-only callers never load it.
      return extractPdf(bytes, limits, options);
  }
}

/**
 * Trims the text, turns whitespace-only results into no_text and refuses one longer than
 * maxTextChars (`text_chars`: a TXT or MD file is only bounded by its bytes until here) or with too
 * many sentences (`text_sentences`).
 */
export function finish(format: FileFormat, text: string, limits: ExtractLimits = DEFAULT_EXTRACT_LIMITS): ExtractResult {
  const trimmed = text.trim();
  if (trimmed === '') throw new ExtractError('no_text', `the ${format.toUpperCase()} file has no text layer or no text`);
  if (trimmed.length > limits.maxTextChars) {
    throw limitError('text_chars', limits.maxTextChars, `the text has ${trimmed.length} characters; the limit is ${limits.maxTextChars}`);
  }
  checkSentences(trimmed, limits.maxTextSentences);
  return { format, text: trimmed };
}
