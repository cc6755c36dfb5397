/**
 * Extraction worker: runs PDF/DOCX extraction off the main event loop. Spawned by ExtractPool.
 * Compiled binaries must list this file as an extra entrypoint (see pool.ts).
 */
import { heapSize } from 'bun:jsc';
import { ExtractError } from './errors.ts';
import { extractFormat } from './index.ts';
import type { WorkerRequest, WorkerResponse } from './protocol.ts';
import { loadPdfjs } from './pdfjs.ts';

declare const self: Worker;

// Started now, so the first PDF does not pay for importing pdf.js (~60 ms cold).
void loadPdfjs();

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const { id, format, bytes, limits, heapLimitBytes } = event.data;
  let response: WorkerResponse;
  try {
    const text = await extractFormat(format, bytes, limits, { heapLimitBytes });
    response = { id, ok: true, text, heapBytes: heapSize() };
  } catch (error) {
    response =
      error instanceof ExtractError
        ? { id, ok: false, code: error.code, message: error.message, params: error.params, heapBytes: heapSize() }
        : { id, ok: false, code: 'extract_failed', message: String((error as Error)?.message ?? error), params: {}, heapBytes: heapSize() };
  }
  self.postMessage(response);
};
