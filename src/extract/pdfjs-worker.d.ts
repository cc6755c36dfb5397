/** pdfjs-dist ships no types for its worker bundle; we only import it for its side effect. */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs';
