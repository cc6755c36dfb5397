import { ExtractError, limitError } from './errors.ts';
import { HeapGuard } from './heap-guard.ts';
import type { ExtractLimits, ExtractRunOptions } from './limits.ts';
import { PdfBudget, withPdfBudget } from './pdf-budget.ts';
import { loadPdfjs } from './pdfjs.ts';
import { isHyphenatedBreak, joinLines, pageParagraphs, type PositionedText } from './pdf-layout.ts';

const PASSWORD_EXCEPTION = 'PasswordException';

/**
 * PDF bytes -> text of every page in order. Lines are joined with spaces, words hyphenated
 * across a line end are rejoined, paragraph breaks (a line gap larger than the page's usual
 * one) become "\n\n"; pages are separated like paragraphs. Throws encrypted_pdf, corrupt_file,
 * extract_limit (pages, inflated bytes, operators or text per page, text per file, heap: see
 * pdf-budget.ts), each while it is being read. CPU-bound and blocking: run it in the pool.
 */
export function extractPdf(bytes: Uint8Array, limits: ExtractLimits, options: ExtractRunOptions = {}): Promise<string> {
  const heap = options.heapLimitBytes === undefined ? undefined : new HeapGuard(options.heapLimitBytes);
  const budget = new PdfBudget(limits, heap);
  return withPdfBudget(budget, () => readPdf(bytes, limits, budget));
}

async function readPdf(bytes: Uint8Array, limits: ExtractLimits, budget: PdfBudget): Promise<string> {
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
      budget.rethrow();
      if ((error as Error)?.name === PASSWORD_EXCEPTION) {
        throw new ExtractError('encrypted_pdf', 'the PDF is password-protected');
      }
      throw new ExtractError('corrupt_file', `unreadable PDF: ${(error as Error)?.message ?? error}`);
    }
    budget.rethrow();
    if (doc.numPages > limits.maxPdfPages) {
      throw limitError('pdf_pages', limits.maxPdfPages, `the PDF has ${doc.numPages} pages; the limit is ${limits.maxPdfPages}`, {
        actual: doc.numPages,
      });
    }
    const paragraphs: string[] = [];
    let chars = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      budget.startPage(n);
      const page = await readPage(doc, n, limits, budget);
      for (const paragraph of page) chars += paragraph.length;
      if (chars > limits.maxTextChars) {
        throw limitError('text_chars', limits.maxTextChars, `the PDF has more than ${limits.maxTextChars} characters of text`);
      }
      if (page.length === 0) continue;
      // A word hyphenated across a page break is rejoined like one across a line end.
      const last = paragraphs.length - 1;
      let first = 0;
      if (last >= 0 && isHyphenatedBreak(paragraphs[last], page[0])) {
        paragraphs[last] = joinLines(paragraphs[last], page[0]);
        first = 1;
      }
      // A loop, not push(...page): a spread of a very long page overflows the stack.
      for (let i = first; i < page.length; i++) paragraphs.push(page[i]);
    }
    return paragraphs.join('\n\n');
  } finally {
    // v6 has no doc.destroy(); destroying the loading task frees the document (STACK_NOTES).
    await task.destroy();
  }
}

type TextChunk = { items: unknown[] };
type PdfPage = { streamTextContent(): ReadableStream<TextChunk>; cleanup(): unknown };
type PdfDoc = { getPage(n: number): Promise<PdfPage> };

async function readPage(doc: PdfDoc, n: number, limits: ExtractLimits, budget: PdfBudget): Promise<string[]> {
  let page: PdfPage;
  try {
    page = await doc.getPage(n);
  } catch (error) {
    budget.rethrow();
    throw new ExtractError('corrupt_file', `unreadable PDF page ${n}: ${(error as Error)?.message ?? error}`);
  }
  try {
    const items = await readPageText(page, n, limits, budget);
    return pageParagraphs(items);
  } catch (error) {
    budget.rethrow();
    if (error instanceof ExtractError) throw error;
    throw new ExtractError('corrupt_file', `unreadable PDF page ${n}: ${(error as Error)?.message ?? error}`);
  } finally {
    page.cleanup();
  }
}

/**
 * The page's text items, read chunk by chunk (pdf.js pauses the parse while a chunk waits to be
 * read) and cut off past maxPdfPageChars, instead of getTextContent()'s one array of everything.
 * The stream is always read to its end: pdf.js 6.5's task.destroy() waits for a paused parse
 * forever, and reader.cancel() makes it enqueue into a closed controller (an uncaught TypeError).
 * Once a limit is hit the budget's hooks throw on the next token, so the rest ends at once.
 */
async function readPageText(page: PdfPage, n: number, limits: ExtractLimits, budget: PdfBudget): Promise<PositionedText[]> {
  const reader = page.streamTextContent().getReader();
  const items: PositionedText[] = [];
  let chars = 0;
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      budget.rethrow();
      for (const item of chunk.value.items as PositionedText[]) {
        if (typeof item.str === 'string') chars += item.str.length;
        items.push(item);
      }
      if (chars > limits.maxPdfPageChars) {
        budget.stop(
          limitError('pdf_page_chars', limits.maxPdfPageChars, `page ${n} has more than ${limits.maxPdfPageChars} characters of text`, {
            page: n,
          }),
        );
      }
      budget.checkHeap();
    }
  } finally {
    await drain(reader);
  }
  budget.rethrow();
  return items;
}

async function drain(reader: ReadableStreamDefaultReader<TextChunk>): Promise<void> {
  try {
    while (!(await reader.read()).done) {}
  } catch {
    // A parse error ends the stream too; the caller reports what it already knows.
  }
}
