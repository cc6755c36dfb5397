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

/**
 * Past this heap after a task, collect before answering, so an idle worker does not sit on the
 * garbage of its last file and the pool does not retire it for a heap that is mostly garbage.
 * Measured here: 21 MB after a 300-page PDF, 48 MB after a 1M-word DOCX, 9-33 MB once collected,
 * a collection 6-13 ms; only files near the limits go past it.
 */
const COLLECT_ABOVE_BYTES = 64 * 1024 * 1024;

/** This thread's heap after the task, collected first when it is large. */
function heapAfterTask(): number {
  if (heapSize() > COLLECT_ABOVE_BYTES) Bun.gc(true);
  return heapSize();
}

// Started now, so the first PDF does not pay for importing pdf.js (~60 ms cold).
void loadPdfjs();

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const { id, format, bytes, limits, heapLimitBytes } = event.data;
  let response: WorkerResponse;
  try {
    const text = await extractFormat(format, bytes, limits, { heapLimitBytes });
    response = { id, ok: true, text, heapBytes: heapAfterTask() };
  } catch (error) {
    response =
      error instanceof ExtractError
        ? { id, ok: false, code: error.code, message: error.message, params: error.params, heapBytes: heapAfterTask() }
        : {
            id,
            ok: false,
            code: 'extract_failed',
            message: String((error as Error)?.message ?? error),
            params: {},
            heapBytes: heapAfterTask(),
          };
  }
  self.postMessage(response);
};
