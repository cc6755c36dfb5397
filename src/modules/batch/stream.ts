/** The NDJSON body: one line per pull, each file scored only once the lines before it reached the client. */
import type { CalibrationProfile, Detector } from '../../detector/types';
import { CodedError, type LabelLang, type Sensitivity, TextTooLongError } from '../../contract';
import type { Logger } from '../../http/logger';
import { completeLine, encodeLine, errorLine, progressLine, resultLine } from './lines';
import type { BatchLine, CompleteLine } from './model';
import type { PlannedFile } from './plan';
import type { DeliverOutcome } from '../quota';

/**
 * How a stream ended: the words of the results the client took (the rest of the charge is
 * refunded) and whether it ran to `complete`.
 */
export interface StreamEnd {
  deliveredWords: number;
  completed: boolean;
  /** Ended early by the server's shutdown, with a complete line naming the files not processed. */
  stopped?: boolean;
  /** Ended early because a result could not be counted under the charge's lease (its error line's code). */
  failed?: Exclude<DeliverOutcome, 'counted'>;
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
  /**
   * Resolves true once everything written so far has been acknowledged by the client's TCP stack
   * (src/http/send-queue.ts), false when `signal` aborts or the connection is gone first. Without
   * it (a connection that cannot be watched) the read-ahead is what the socket buffers absorb.
   */
  acknowledged?(signal: AbortSignal): Promise<boolean>;
  /**
   * Counts a result before it is handed over: the words of the results delivered with it (the
   * charge's hold counts them under its lease). Anything but `counted` ends the stream with an
   * error line of that code in place of the result (issue 33: a process that stalled past its
   * lease went on delivering results nobody paid for).
   */
  onDeliver?(deliveredWords: number): Promise<DeliverOutcome>;
  onEnd(end: StreamEnd): void;
}

/**
 * Resolves in the next event-loop iteration: Bun has written the lines handed over so far to the
 * socket by then, and other requests are served between the files of a long batch. Bun writes a
 * streamed chunk when the iteration it was handed over in ends; a setImmediate scheduled from a
 * PostgreSQL reply runs before that (measured: the line was written only once the next file had
 * been scored, 60-300 ms later), one scheduled from it after (0-1 ms). Issue 40: the read-ahead
 * bound found nothing unacknowledged, and a client that hung up on reading the line had the next
 * file charged. (A timer turn works too, but costs 1 ms: 61 ms instead of 19 for 20 short files.)
 */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** The lines of a batch, in upload order; generated lazily, one file at a time. */
export async function* batchLines(o: BatchStreamOptions): AsyncGenerator<BatchLine, void, undefined> {
  const total = o.plan.length;
  let deliveredWords = 0;
  let completed = false;
  let stopped = false;
  let failed: StreamEnd['failed'];
  const interrupted = o.stopping ? AbortSignal.any([o.client, o.stopping]) : o.client;
  /**
   * The read-ahead bound (issue 33): runs once the line handed over last was taken by the consumer
   * (the code after a `yield`) and resolves true once every line so far has reached the client,
   * false when `signal` aborted first (the client left, the server is stopping) or the connection
   * is gone. Nothing is scored, counted or handed over meanwhile.
   */
  const reached = async (signal: AbortSignal): Promise<boolean> => {
    await nextTurn();
    if (o.acknowledged && !(await o.acknowledged(signal))) return false;
    return !signal.aborted;
  };
  /** The complete line of a stream stopped before `file`: it and every later file are unprocessed. */
  const stopBefore = (file: PlannedFile) => {
    stopped = true;
    return completeLine(
      total,
      o.plan.filter((f) => f.index >= file.index).map((f) => f.index),
    );
  };
  try {
    let end: CompleteLine | null = null;
    for (const file of o.plan) {
      if (o.client.aborted) return;
      if (o.stopping?.aborted) {
        end = stopBefore(file);
        break;
      }
      yield progressLine(file, total);
      // Nothing more is scored until the lines before this file reached the client.
      const ready = await reached(interrupted);
      if (o.client.aborted) return;
      if (o.stopping?.aborted) {
        end = stopBefore(file);
        break;
      }
      if (!ready) return; // the connection is gone
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
        // Not charged (refunded in onEnd). Past the text limit once normalised (NFKC): the file's limit line.
        if (error instanceof TextTooLongError) {
          line = errorLine(file, { code: 'extract_limit', params: { kind: 'text_chars', limit: error.params.limit } }, o.lang);
        } else if (error instanceof CodedError && error.code === 'calibration_invalid') {
          // The profile gave this text a score that is not a number (decide/index.ts): the file is refused, never answered with it.
          line = errorLine(file, { code: 'calibration_invalid', params: error.params }, o.lang);
        } else {
          // Name only, a message could quote the text.
          o.logger.error('batch_analyze_error', { name: (error as Error)?.name ?? 'Error' });
          line = errorLine(file, { code: 'internal_error', params: {} }, o.lang);
        }
      }
      if (line.type === 'result') {
        // Analysis is synchronous: a client that hung up meanwhile is seen only after it. Bun may
        // not have aborted the request's signal yet; the kernel knows (a reset connection has
        // left its table, one the client closed is in CLOSE_WAIT): the connection is looked up
        // again. Its result is never sent, so it is not charged (refunded in onEnd).
        if (!(await reached(o.client))) return;
        // Counted before it is handed over, under the lease: a crash between the two charges this
        // one result without sending it; a stalled process that lost its lease sends nothing more.
        // With the read-ahead bound, this is the one result a client that stopped reading can be
        // charged for beyond those that reached it.
        const outcome = o.onDeliver ? await o.onDeliver(deliveredWords + file.words) : 'counted';
        if (outcome !== 'counted') {
          failed = outcome;
          o.onFile?.(outcome);
          yield errorLine(file, { code: outcome, params: {} }, o.lang);
          return;
        }
        deliveredWords += file.words;
      }
      o.onFile?.(line.type === 'result' ? 'result' : line.code);
      yield line;
    }
    if (end) yield end;
    else {
      completed = true;
      yield completeLine(total);
    }
    // The stream stays open (the shutdown waits for it, within its grace period) until its last
    // lines reached the client.
    await reached(o.client);
  } finally {
    o.onEnd({ deliveredWords, completed, stopped, failed });
  }
}

/** True for the result or error line of the batch's last file (the complete line follows it at once). */
function isLastFileLine(line: BatchLine, total: number): boolean {
  return (line.type === 'result' || line.type === 'error') && line.index === total - 1;
}

/**
 * A byte stream over `batchLines` (highWaterMark 0): a line is produced when the consumer asks
 * for it, so each one is flushed on its own; with `acknowledged`, a file is scored only once the
 * lines before it reached the client, so a client that stops reading stops the work within one
 * file, whatever the socket buffers could absorb. Cancelling the stream or aborting `client` ends
 * the generator (its `finally` runs `onEnd`).
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
          let bytes = encodeLine(next.value);
          // The last file's line and the complete line leave as one chunk: a client holding every
          // result holds the end of the stream too, and so does the answer kept for its retry
          // (issue 33: a reset between the two made the retry run and pay again).
          if (isLastFileLine(next.value, options.plan.length)) {
            const end = await lines.next();
            if (!end.done) bytes = Buffer.concat([bytes, encodeLine(end.value)]);
          }
          try {
            controller.enqueue(bytes);
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
