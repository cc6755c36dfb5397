/**
 * Loads pdf.js (legacy build) once per thread. The worker module goes first: it registers
 * globalThis.pdfjsWorker, so pdf.js parses in this thread instead of spawning its own (STACK_NOTES).
 */

type PdfjsModule = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/** Import-time warnings about canvas polyfills: text extraction never renders, so they are noise
 * (they appear in compiled binaries, where the native @napi-rs/canvas package is not embedded). */
const CANVAS_WARNING = /^Warning: Cannot (load "@napi-rs\/canvas"|polyfill `(DOMMatrix|Path2D)`)/;

let loading: Promise<PdfjsModule> | null = null;

/** The pdf.js API, imported on first use with its canvas-polyfill warnings filtered out. */
export function loadPdfjs(): Promise<PdfjsModule> {
  loading ??= importQuietly();
  return loading;
}

async function importQuietly(): Promise<PdfjsModule> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && CANVAS_WARNING.test(args[0])) return;
    warn(...args);
  };
  try {
    await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    return await import('pdfjs-dist/legacy/build/pdf.mjs');
  } finally {
    console.warn = warn;
  }
}
