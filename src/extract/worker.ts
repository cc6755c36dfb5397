/**
 * Extraction worker: runs PDF/DOCX extraction off the main event loop. Spawned by ExtractPool.
 * Compiled binaries must list this file as an extra entrypoint (see pool.ts).
 */
import { ExtractError } from './errors.ts';
import { extractFormat } from './index.ts';
import type { WorkerRequest, WorkerResponse } from './protocol.ts';
import { loadPdfjs } from './pdfjs.ts';

declare const self: Worker;

// Started now, so the first PDF does not pay for importing pdf.js (~60 ms cold).
void loadPdfjs();

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const { id, format, bytes, limits } = event.data;
  let response: WorkerResponse;
  try {
    response = { id, ok: true, text: await extractFormat(format, bytes, limits) };
  } catch (error) {
    response =
      error instanceof ExtractError
        ? { id, ok: false, code: error.code, message: error.message }
        : { id, ok: false, code: 'extract_failed', message: String((error as Error)?.message ?? error) };
  }
  self.postMessage(response);
};
