import { DEFAULT_MAX_TEXT_CHARS } from '../contract/text-length.ts';

/** Per-file extraction limits; the batch route passes its configured values. */
export type ExtractLimits = {
  /** Largest accepted input file, in bytes. */
  maxFileBytes: number;
  /** Largest accepted PDF page count. */
  maxPdfPages: number;
  /** Largest size a DOCX body may inflate to (declared in its zip directory, then counted while inflating), in bytes. */
  maxDocxUncompressedBytes: number;
  /** Largest size one PDF stream may inflate to (checked before each buffer grows), in bytes. */
  maxPdfStreamBytes: number;
  /** Largest total of every PDF stream's inflated bytes (streams read twice count twice), in bytes. */
  maxPdfInflatedBytes: number;
  /** Most content-stream tokens (operators and their operands) read for one page, forms and glyph procedures included. */
  maxPdfPageOperators: number;
  /** Most content-stream tokens read for the whole file (every page, form and glyph procedure): its CPU-time budget. */
  maxPdfOperators: number;
  /** Most form XObjects drawn while reading one page (each call re-reads the form: forms calling forms multiply). */
  maxPdfPageForms: number;
  /** Most characters of text read from one PDF page. */
  maxPdfPageChars: number;
  /** Most characters of text one file may yield, any format (PDF and DOCX: counted while extracting): the one text limit (src/contract/text-length.ts). */
  maxTextChars: number;
  /** Most sentences one file's text may have, fewer for dense text (sentences.ts); checked before it is scored. */
  maxTextSentences: number;
};

/** Options of one extraction that concern the thread doing it, not the file. */
export type ExtractRunOptions = {
  /** Heap ceiling of this thread while the file is read (worker threads only: see heap-guard.ts). */
  heapLimitBytes?: number;
};

/** Which limit was hit: the `kind` of an extract_limit error, and the key of its message. */
export type ExtractLimitKind =
  | 'pdf_pages'
  | 'pdf_stream_bytes'
  | 'pdf_inflated_bytes'
  | 'pdf_page_operators'
  | 'pdf_operators'
  | 'pdf_page_forms'
  | 'pdf_page_chars'
  | 'docx_inflated_bytes'
  | 'text_chars'
  | 'text_sentences'
  | 'memory';

const MB = 1024 * 1024;

/** 10 MB per file: issue 5's per-file cap. */
export const DEFAULT_MAX_FILE_BYTES = 10 * MB;
/** 300 pages: issue 5's per-PDF cap (about 150k words, far above any submission). */
export const DEFAULT_MAX_PDF_PAGES = 300;
/** 50 MB uncompressed: issue 5's zip-bomb guard; a 300-page DOCX body is a few MB of XML. */
export const DEFAULT_MAX_DOCX_UNCOMPRESSED_BYTES = 50 * MB;
/**
 * 32 MB per stream: room for the largest legitimate streams (a complete embedded CJK font
 * program is ~16 MB); the 196 KB bomb of issue 16 inflates one stream to 64 MB (1.7 GB RSS, 19 s
 * before this limit; stopped in ~0.3 s with it).
 */
export const DEFAULT_MAX_PDF_STREAM_BYTES = 32 * MB;
/**
 * 256 MB per file: eight times the stream limit, for 300 pages of content plus fonts; reading a
 * PDF of 12 pages of 24 MB each (no text, no operators) was stopped by it after 2.6 s.
 */
export const DEFAULT_MAX_PDF_INFLATED_BYTES = 256 * MB;
/**
 * 2M tokens (operators and operands) per page: the 300-word pages the bench writes take ~100 and
 * generators that position every glyph use a few per character; pdf.js parsed 2M tokens of
 * `q Q` or `null` in 0.6-1.2 s here, so one page costs at most about a second.
 */
export const DEFAULT_MAX_PDF_PAGE_OPERATORS = 2_000_000;
/**
 * 1M tokens per file (issue 23), below the page limit: pages were limited one by one, so 300 pages
 * sharing one stream of 2M `q Q` tokens (a 51 KB file) were each within the page limit and held
 * the extraction worker ~45 s here (each page re-parses the stream) before the inflated-bytes total
 * stopped it. A token costs pdf.js ~0.25-0.6 us here, so parsing now holds a worker for well under
 * a second per file, which bounds how long a small file waits behind another key's file (the fair
 * queue in pool.ts). The bench's 300-word pages take ~100 tokens (300 pages: ~30k); a generator that
 * places every word (~10 tokens a word) fits ~200 such pages.
 */
export const DEFAULT_MAX_PDF_OPERATORS = 1_000_000;
/**
 * 5,000 form calls per page: pdf.js spends ~0.5 ms on each (a fresh parse and several promise
 * turns), so 9 levels of forms drawing forms 10 times took 9.6 s for 100k characters; a page
 * rarely calls a form with text more than a few hundred times (forms without text are cached).
 */
export const DEFAULT_MAX_PDF_PAGE_FORMS = 5_000;
/** 100k characters per page: about seven times a dense page (2 columns x 120 lines x 60 characters = 14,400). */
export const DEFAULT_MAX_PDF_PAGE_CHARS = 100_000;
/** 512 Ki characters per file: the one per-text limit of detections, files and calibration texts (src/contract/text-length.ts). */
export { DEFAULT_MAX_TEXT_CHARS };
/** Most sentence ends one file's text may have: 2.5x ordinary prose at the 10 MiB text limit (~390 MB RSS to score; src/extract/sentences.ts counts them). */
export const DEFAULT_MAX_TEXT_SENTENCES = 250_000;

/** The defaults issues 5 and 16 ask for. */
export const DEFAULT_EXTRACT_LIMITS: Readonly<ExtractLimits> = Object.freeze({
  maxFileBytes: DEFAULT_MAX_FILE_BYTES,
  maxPdfPages: DEFAULT_MAX_PDF_PAGES,
  maxDocxUncompressedBytes: DEFAULT_MAX_DOCX_UNCOMPRESSED_BYTES,
  maxPdfStreamBytes: DEFAULT_MAX_PDF_STREAM_BYTES,
  maxPdfInflatedBytes: DEFAULT_MAX_PDF_INFLATED_BYTES,
  maxPdfPageOperators: DEFAULT_MAX_PDF_PAGE_OPERATORS,
  maxPdfOperators: DEFAULT_MAX_PDF_OPERATORS,
  maxPdfPageForms: DEFAULT_MAX_PDF_PAGE_FORMS,
  maxPdfPageChars: DEFAULT_MAX_PDF_PAGE_CHARS,
  maxTextChars: DEFAULT_MAX_TEXT_CHARS,
  maxTextSentences: DEFAULT_MAX_TEXT_SENTENCES,
});
