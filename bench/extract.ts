/** Batch extraction section: PDF pages/s and DOCX files/s through the worker pool (ExtractPool). */
import { ExtractPool } from '../src/extract/pool';
import { benchDocx, benchPdf } from './files';

/** PDFs per run and pages per PDF (about 300 words a page). */
const PDF_FILES = 12;
const PDF_PAGES = 10;
/** DOCX files per run and words per file. */
const DOCX_FILES = 60;
const DOCX_WORDS = 1_000;

/** Throughput of the extraction pool. */
export interface ExtractResult {
  poolSize: number;
  pdfPagesPerSec: number;
  pdfFiles: number;
  pdfPages: number;
  docxFilesPerSec: number;
  docxFiles: number;
  docxWords: number;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await run();
  return (performance.now() - t0) / 1000;
}

/** Submits every file at once (the pool queues them) and measures wall-clock throughput. */
export async function benchExtract(): Promise<ExtractResult> {
  const pool = new ExtractPool();
  try {
    const pdfs = Array.from({ length: PDF_FILES }, (_, i) => benchPdf(PDF_PAGES, i));
    const docxs = await Promise.all(Array.from({ length: DOCX_FILES }, (_, i) => benchDocx(DOCX_WORDS, i)));
    // Warm-up: worker start and pdf.js/jszip loading are start-up costs, not throughput.
    pool.prestart();
    await Promise.all([pool.extract(pdfs[0], 'warm.pdf'), pool.extract(docxs[0], 'warm.docx')]);
    const pdfSec = await timed(() => Promise.all(pdfs.map((b, i) => pool.extract(b, `f${i}.pdf`))));
    const docxSec = await timed(() => Promise.all(docxs.map((b, i) => pool.extract(b, `f${i}.docx`))));
    return {
      poolSize: pool.size,
      pdfPagesPerSec: (PDF_FILES * PDF_PAGES) / pdfSec,
      pdfFiles: PDF_FILES,
      pdfPages: PDF_PAGES,
      docxFilesPerSec: DOCX_FILES / docxSec,
      docxFiles: DOCX_FILES,
      docxWords: DOCX_WORDS,
    };
  } finally {
    pool.close();
  }
}
