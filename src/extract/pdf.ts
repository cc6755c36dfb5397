import { ExtractError } from './errors.ts';
import type { ExtractLimits } from './limits.ts';
import { loadPdfjs } from './pdfjs.ts';
import { isHyphenatedBreak, joinLines, pageParagraphs, type PositionedText } from './pdf-layout.ts';

const PASSWORD_EXCEPTION = 'PasswordException';

/**
 * PDF bytes -> text of every page in order. Lines are joined with spaces, words hyphenated
 * across a line end are rejoined, paragraph breaks (a line gap larger than the page's usual
 * one) become "\n\n"; pages are separated like paragraphs. Throws encrypted_pdf, corrupt_file,
 * file_too_large (more than maxPdfPages pages). CPU-bound and blocking: run it in the pool.
 */
export async function extractPdf(bytes: Uint8Array, limits: ExtractLimits): Promise<string> {
  const { getDocument } = await loadPdfjs();
  // getDocument detaches the buffer it is given: hand it a copy so the caller's bytes survive.
  const task = getDocument({
    data: bytes.slice(),
    verbosity: 0,
    disableFontFace: true,
    useSystemFonts: false,
  });
  try {
    let doc: Awaited<typeof task.promise>;
    try {
      doc = await task.promise;
    } catch (error) {
      if ((error as Error)?.name === PASSWORD_EXCEPTION) {
        throw new ExtractError('encrypted_pdf', 'the PDF is password-protected');
      }
      throw new ExtractError('corrupt_file', `unreadable PDF: ${(error as Error)?.message ?? error}`);
    }
    if (doc.numPages > limits.maxPdfPages) {
      throw new ExtractError('file_too_large', `the PDF has ${doc.numPages} pages; the limit is ${limits.maxPdfPages}`);
    }
    const paragraphs: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await readPage(doc, n);
      if (page.length === 0) continue;
      // A word hyphenated across a page break is rejoined like one across a line end.
      const last = paragraphs.length - 1;
      if (last >= 0 && isHyphenatedBreak(paragraphs[last], page[0])) {
        paragraphs[last] = joinLines(paragraphs[last], page[0]);
        paragraphs.push(...page.slice(1));
      } else {
        paragraphs.push(...page);
      }
    }
    return paragraphs.join('\n\n');
  } finally {
    // v6 has no doc.destroy(); destroying the loading task frees the document (STACK_NOTES).
    await task.destroy();
  }
}

type PdfDoc = { getPage(n: number): Promise<{ getTextContent(): Promise<{ items: unknown[] }>; cleanup(): unknown }> };

async function readPage(doc: PdfDoc, n: number): Promise<string[]> {
  try {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    page.cleanup();
    return pageParagraphs(content.items as PositionedText[]);
  } catch (error) {
    if (error instanceof ExtractError) throw error;
    throw new ExtractError('corrupt_file', `unreadable PDF page ${n}: ${(error as Error)?.message ?? error}`);
  }
}
