/** Per-file extraction limits; the batch route passes its configured values. */
export type ExtractLimits = {
  /** Largest accepted input file, in bytes. */
  maxFileBytes: number;
  /** Largest accepted PDF page count. */
  maxPdfPages: number;
  /** Largest total uncompressed size a DOCX may declare in its zip directory, in bytes. */
  maxDocxUncompressedBytes: number;
};

const MB = 1024 * 1024;

/** 10 MB per file: issue 5's per-file cap. */
export const DEFAULT_MAX_FILE_BYTES = 10 * MB;
/** 300 pages: issue 5's per-PDF cap (about 150k words, far above any submission). */
export const DEFAULT_MAX_PDF_PAGES = 300;
/** 50 MB uncompressed: issue 5's zip-bomb guard; a 300-page DOCX body is a few MB of XML. */
export const DEFAULT_MAX_DOCX_UNCOMPRESSED_BYTES = 50 * MB;

/** The defaults issue 5 asks for. */
export const DEFAULT_EXTRACT_LIMITS: Readonly<ExtractLimits> = Object.freeze({
  maxFileBytes: DEFAULT_MAX_FILE_BYTES,
  maxPdfPages: DEFAULT_MAX_PDF_PAGES,
  maxDocxUncompressedBytes: DEFAULT_MAX_DOCX_UNCOMPRESSED_BYTES,
});
