/** Batch module (issue 5): multipart files[] -> NDJSON scores; app.ts hands its handler to POST /api/detect. */
import type { Config } from '../../config';
import type { ExtractPool } from '../../extract/pool';
import type { HandleBatch } from '../detect/batch-contract';
import type { RateStore } from '../../store/types';
import { exhaustedFilesFor, extractPoolFor } from './pool';
import { runBatch } from './service';

export { FILE_FIELDS, readBatchForm, type BatchForm, type UploadedFile } from './form';
export type { BatchLine, CompleteLine, ErrorLine, ProgressLine, ResultLine } from './model';
export { exhaustedFilesFor, extractPoolFor } from './pool';
export { NDJSON_TYPE, runBatch } from './service';

/** Options of createBatchHandler: where the extraction pool comes from (default: one per app config), and the store's rate buckets. */
export interface BatchHandlerOptions {
  pool?: (config: Config) => ExtractPool;
  /** Where the extraction throttle counts a key's files (exhausted.ts); without it, in this process only. */
  rates?: RateStore | null;
}

/** A HandleBatch with an injected pool source (tests, or a pool main.ts owns and closes). */
export function createBatchHandler({ pool = extractPoolFor, rates = null }: BatchHandlerOptions = {}): HandleBatch {
  return function handleBatch(ctx) {
    return runBatch(ctx, pool(ctx.config), exhaustedFilesFor(ctx.config, rates));
  };
}
