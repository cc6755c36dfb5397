import { heapSize } from 'bun:jsc';
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { DEFAULT_EXTRACT_LIMITS } from '../../src/extract/limits.ts';
import { extractPdf } from '../../src/extract/pdf.ts';
import {
  brokenXrefPdf,
  deepNestingPdf,
  doubleFlateBombPdf,
  flateBombPdf,
  inflatedTotalBombPdf,
  loopingPagesPdf,
  nestedFormsPdf,
  operatorFloodPdf,
  runLengthBombPdf,
  sharedStreamPdf,
  textFloodPdf,
} from '../fixtures/hostile-pdf.ts';
import { makePdf } from '../fixtures/make.ts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const MB = 1024 * 1024;

/** The error a PDF fails with, and how long reading it took. */
async function failure(pdf: Uint8Array, limits = DEFAULT_EXTRACT_LIMITS) {
  const started = performance.now();
  const error = await extractPdf(pdf, limits).then(
    () => null,
    (e) => e,
  );
  return { error, ms: performance.now() - started };
}

describe('PDF budgets, enforced inside pdf.js while it reads (patches/pdfjs-dist)', () => {
  it("stops issue 16's 196 KB bomb at the per-stream limit, in well under a second", async () => {
    const pdf = flateBombPdf();
    expect(pdf.length).toBeLessThan(200_000);
    const { error, ms } = await failure(pdf);
    expect(error).toMatchObject({ code: 'extract_limit', params: { kind: 'pdf_stream_bytes', limit: 32 * MB } });
    // Before: 19 s and 1.7 GB for this file in one process.
    expect(ms).toBeLessThan(5_000);
  });

  it('counts every decoder: FlateDecode applied twice and RunLengthDecode (decoded in JavaScript)', async () => {
    expect((await failure(doubleFlateBombPdf())).error?.params).toEqual({ kind: 'pdf_stream_bytes', limit: 32 * MB });
    expect((await failure(runLengthBombPdf())).error?.params).toEqual({ kind: 'pdf_stream_bytes', limit: 32 * MB });
  });

  it('adds up the streams of the whole file', async () => {
    const limits = { ...DEFAULT_EXTRACT_LIMITS, maxPdfInflatedBytes: 64 * MB };
    const { error } = await failure(inflatedTotalBombPdf(4, 20 * MB), limits);
    expect(error).toMatchObject({ code: 'extract_limit', params: { kind: 'pdf_inflated_bytes', limit: 64 * MB } });
  });

  it('caps operators per page, operands without operators included', async () => {
    for (const unit of ['q Q\n', 'null ']) {
      const { error } = await failure(operatorFloodPdf(unit, 4 * MB), { ...DEFAULT_EXTRACT_LIMITS, maxPdfPageOperators: 100_000 });
      expect(error).toMatchObject({ code: 'extract_limit', params: { kind: 'pdf_page_operators', limit: 100_000, page: 1 } });
    }
  });

  it('caps operators per file: 300 pages sharing one stream of ~2M no-op operators stop on page 1 (issue 23)', async () => {
    const pdf = sharedStreamPdf();
    expect(pdf.length).toBeLessThan(60_000);
    const { error, ms } = await failure(pdf);
    expect(error).toMatchObject({ code: 'extract_limit', params: { kind: 'pdf_operators', limit: 1_000_000, page: 1 } });
    // Before: ~45 s here (every page within the page limit), stopped by the inflated-bytes total.
    expect(ms).toBeLessThan(5_000);
    const tight = await failure(makePdf(Array.from({ length: 5 }, (_, i) => `Page ${i} has a few words.`)), {
      ...DEFAULT_EXTRACT_LIMITS,
      maxPdfOperators: 30,
    });
    expect(tight.error).toMatchObject({ code: 'extract_limit', params: { kind: 'pdf_operators', limit: 30 } });
  });

  it('caps the text of a page and the form calls of a page', async () => {
    expect((await failure(textFloodPdf())).error?.params).toEqual({ kind: 'pdf_page_chars', limit: 100_000, page: 1 });
    const { error, ms } = await failure(nestedFormsPdf());
    expect(error?.params).toEqual({ kind: 'pdf_page_forms', limit: 5_000, page: 1 });
    // Before the form limit: 9.6 s for this 2.5 KB file.
    expect(ms).toBeLessThan(5_000);
  });

  it('caps the text of the whole file', async () => {
    const pages = Array.from({ length: 5 }, (_, i) => `Page ${i} has a few words of text on it.`);
    const { error } = await failure(makePdf(pages), { ...DEFAULT_EXTRACT_LIMITS, maxTextChars: 100 });
    expect(error).toMatchObject({ code: 'extract_limit', params: { kind: 'text_chars', limit: 100 } });
  });

  it('stops at a heap ceiling when one is given (worker threads)', async () => {
    // Text items of a 24 MB page under loose text limits: only the heap check can stop them.
    const limits = { ...DEFAULT_EXTRACT_LIMITS, maxPdfPageChars: 1e9, maxPdfPageOperators: 1e9, maxPdfOperators: 1e9 };
    Bun.gc(true);
    const heapLimitBytes = heapSize() + 48 * MB;
    const error = await extractPdf(flateBombPdf(24 * MB), limits, { heapLimitBytes }).catch((e) => e);
    expect(error).toMatchObject({ code: 'extract_limit', params: { kind: 'memory', limit: Math.round(heapLimitBytes / MB) } });
  });

  it('answers corrupt_file for looping and absurdly deep object graphs, and reads a broken xref table', async () => {
    expect((await failure(loopingPagesPdf())).error?.code).toBe('corrupt_file');
    expect((await failure(deepNestingPdf())).error?.code).toBe('corrupt_file');
    expect(await extractPdf(brokenXrefPdf('Rebuilt from a scan of the file.'), DEFAULT_EXTRACT_LIMITS)).toBe(
      'Rebuilt from a scan of the file.',
    );
  });

  it('still reads an ordinary PDF after every limit was hit in this thread', async () => {
    expect(await extractPdf(makePdf(['Still fine.']), DEFAULT_EXTRACT_LIMITS)).toBe('Still fine.');
  });
});
