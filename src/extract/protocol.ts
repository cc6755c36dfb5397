import type { ExtractErrorCode } from './errors.ts';
import type { ExtractLimits } from './limits.ts';
import type { FileFormat } from './sniff.ts';

/** Main thread -> worker: extract one already-sniffed file. */
export type WorkerRequest = { id: number; format: FileFormat; bytes: Uint8Array; limits: ExtractLimits };

/** Worker -> main thread: the text, or the error's stable code (classes do not survive postMessage). */
export type WorkerResponse =
  | { id: number; ok: true; text: string }
  | { id: number; ok: false; code: ExtractErrorCode; message: string };
