import type { ExtractErrorCode, ExtractErrorParams } from './errors.ts';
import type { ExtractLimits } from './limits.ts';
import type { FileFormat } from './sniff.ts';

/** Main thread -> worker: extract one already-sniffed file under a heap ceiling. */
export type WorkerRequest = { id: number; format: FileFormat; bytes: Uint8Array; limits: ExtractLimits; heapLimitBytes: number };

/**
 * Worker -> main thread: the text, or the error's stable code and params (classes do not survive
 * postMessage); `heapBytes` is the worker's heap once the task is done (the pool recycles a
 * worker that keeps too much).
 */
export type WorkerResponse =
  | { id: number; ok: true; text: string; heapBytes: number }
  | { id: number; ok: false; code: ExtractErrorCode; message: string; params: ExtractErrorParams; heapBytes: number };
