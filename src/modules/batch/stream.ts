/** The NDJSON body: one line per pull, each file scored only when its turn comes. */
import type { CalibrationProfile, Detector } from '../../detector/types';
import type { LabelLang, Sensitivity } from '../../contract';
import type { Logger } from '../../http/logger';
import { completeLine, encodeLine, errorLine, progressLine, resultLine } from './lines';
import type { BatchLine } from './model';
import type { PlannedFile } from './plan';

/**
 * How a stream ended: the words of the results the client took (the rest of the charge is
 * refunded) and whether it ran to `complete`.
 */
export interface StreamEnd {
  deliveredWords: number;
  completed: boolean;
  /** Ended early by the server's shutdown, with a complete line naming the files not processed. */
  stopped?: boolean;
}

/** Everything the stream needs; `onEnd` runs exactly once, however the stream ends. */
export interface BatchStreamOptions {
  plan: readonly PlannedFile[];
  detector: Detector;
  /** The loaded model's version, put in every result line. */
  modelVersion: string;
  /** `detail=full`: result lines carry the explanation. */
  full?: boolean;
  sensitivity: Sensitivity;
  /** The calibration profile the batch named (its `calibration` field), or null. */
  profile?: CalibrationProfile | null;
  lang: LabelLang;
  /** The request's signal: a disconnect stops the remaining work. */
  client: AbortSignal;
  /** The batch time budget: files not scored when it fires get `batch_timeout`. */
  budget: AbortSignal;
  /**
   * Aborted when the server begins to stop (SIGTERM): the file being scored finishes, then the
   * stream ends with a complete line listing the files not processed (issue 29: a line was cut
   * in half and the stop took 99-134 s).
   */
  stopping?: AbortSignal;
  budgetSeconds: number;
  logger: Logger;
  /** Each file's outcome as its line is handed over: `result`, or the code of its error line (the metrics count them). */
  onFile?(outcome: string): void;
  /** The words of the results handed to the client so far, after each result (the charge's hold counts them); awaited. */
  onDeliver?(deliveredWords: number): Promise<void> | undefined;
  onEnd(end: StreamEnd): void;
}

/** Resolves on the next macrotask, so other requests are served between the files of a long batch. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The lines of a batch, in upload order; generated lazily, one file at a time. */
export async function* batchLines(o: BatchStreamOptions): AsyncGenerator<BatchLine, void, undefined> {
  const total = o.plan.length;
  let deliveredWords = 0;
  let completed = false;
  let stopped = false;
  /** The complete line of a stream stopped before `file`: it and every later file are unprocessed. */
  const stopBefore = (file: PlannedFile) => {
    stopped = true;
    return completeLine(
      total,
      o.plan.filter((f) => f.index >= file.index).map((f) => f.index),
    );
  };
  try {
    for (const file of o.plan) {
      if (o.client.aborted) return;
      if (o.stopping?.aborted) {
        yield stopBefore(file);
        return;
      }
      yield progressLine(file, total);
      await nextTurn();
      if (o.client.aborted) return;
      if (o.stopping?.aborted) {
        yield stopBefore(file);
        return;
      }
      if (!file.ok) {
        o.onFile?.(file.failure.code);
        yield errorLine(file, file.failure, o.lang);
        continue;
      }
      if (o.budget.aborted) {
        o.onFile?.('batch_timeout');
        yield errorLine(file, { code: 'batch_timeout', params: { seconds: o.budgetSeconds } }, o.lang);
        continue;
      }
      let line: BatchLine;
      try {
        const analysis = o.detector.analyze(file.text, {
          sensitivity: o.sensitivity,
          labelLang: o.lang,
          profile: o.profile ?? null,
          modelVersion: o.modelVersion,
        });
        line = resultLine(file, analysis, o.modelVersion, o.full);
        // Scored: drop the text now rather than with the whole batch (a 40 MB batch held ~40 MB of text to its last line).
        file.text = '';
      } catch (error) {
        // Not charged (refunded in onEnd); name only, a message could quote the text.
        o.logger.error('batch_analyze_error', { name: (error as Error)?.name ?? 'Error' });
        line = errorLine(file, { code: 'internal_error', params: {} }, o.lang);
      }
      if (line.type === 'result') {
        // Analysis is synchronous: a client that hung up meanwhile is only seen after a turn of the
        // event loop. Its result is never sent, so it is not charged (refunded in onEnd).
        await nextTurn();
        if (o.client.aborted) return;
        deliveredWords += file.words;
      }
      o.onFile?.(line.type === 'result' ? 'result' : line.code);
      yield line;
      // Runs when the next line is asked for, so after this one was handed over: a crash before
      // it is written gives this result back (never charged twice), one after cannot charge a
      // result that was never sent.
      if (line.type === 'result') await o.onDeliver?.(deliveredWords);
    }
    completed = true;
    yield completeLine(total);
  } finally {
    o.onEnd({ deliveredWords, completed, stopped });
  }
}

/**
 * A byte stream over `batchLines` with no read-ahead (highWaterMark 0): a line is produced when
 * the consumer asks for it, so each one is flushed on its own and nothing runs for a client that
 * stopped reading. Cancelling the stream or aborting `client` ends the generator (its `finally`
 * runs `onEnd`).
 */
export function batchStream(options: BatchStreamOptions): ReadableStream<Uint8Array> {
  let ended = false;
  const onEnd = (end: StreamEnd) => {
    if (ended) return;
    ended = true;
    options.onEnd(end);
  };
  const lines = batchLines({ ...options, onEnd });
  // return() on a generator that never started skips its `finally`: end it here in that case.
  const stop = () =>
    void lines
      .return(undefined)
      .catch(() => {})
      .then(() => onEnd({ deliveredWords: 0, completed: false }));
  // Gone already (between the charge and now): end at once, nobody will pull a line.
  if (options.client.aborted) stop();
  else options.client.addEventListener('abort', stop, { once: true });
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await lines.next();
        if (next.done) {
          options.client.removeEventListener('abort', stop);
          controller.close();
        } else {
          try {
            controller.enqueue(encodeLine(next.value));
          } catch {
            // Cancelled while this line was being produced: nobody is reading any more.
          }
        }
      },
      cancel() {
        options.client.removeEventListener('abort', stop);
        stop();
      },
    },
    { highWaterMark: 0 },
  );
}
