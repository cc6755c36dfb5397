/** The batch before its stream starts: every file extracted (or failed) and its words counted. */
import type { Detector } from '../../detector/types';
import { ExtractError, type ExtractLimits, type FileFormat } from '../../extract';
import type { ExtractPool, TaskGate, TaskOwner } from '../../extract/pool';
import type { Logger } from '../../http/logger';
import { MIN_WORDS } from '../../contract';
import type { UploadedFile } from './form';
import type { FileErrorCode } from './model';
import { createTurns, type InTurn } from './turns';

export type { FileErrorCode } from './model';

/** A file that cannot be scored: its error line's code and message parameters. */
export interface FileFailure {
  code: FileErrorCode;
  params: Record<string, string | number>;
}

/** One file of the plan: scorable (text + words) or failed. */
export type PlannedFile = UploadedFile &
  ({ ok: true; format: FileFormat; text: string; words: number } | { ok: false; failure: FileFailure });

/** What extraction needs. */
export interface PlanDeps {
  pool: ExtractPool;
  limits: ExtractLimits;
  detector: Detector;
  logger: Logger;
  /** Whose files these are, for the pool's fair queue (the key, and this request within it). */
  owner?: TaskOwner;
  /** Refuses the key's files while too many of them exhaust a budget (exhausted.ts). */
  gate?: TaskGate;
}

/** Thrown when the client went away during extraction: nothing is charged, no stream is built. */
export class ClientGoneError extends Error {
  override name = 'ClientGoneError';
}

/** Thrown as soon as the files counted so far need more words than the key has left: the rest are not extracted. */
export class OverQuotaError extends Error {
  override name = 'OverQuotaError';

  constructor(
    /** Words counted when the plan stopped: at least what the batch needs. */
    readonly words: number,
  ) {
    super(`the batch needs at least ${words} words`);
  }
}

/** The signals a plan watches: the client, the time budget, and (internal) the quota running out. */
interface PlanSignals {
  client: AbortSignal;
  budget: AbortSignal;
  /** The server is stopping: extraction stops, and the stream reports every file unprocessed. */
  stopping?: AbortSignal;
  both: AbortSignal;
}

/** Words counted so far against what the key has left; `stop` aborts the files still extracting. */
interface RunningTotal {
  words: number;
  remaining: number;
  stop: AbortController;
  /** The planning's turns of the event loop (./turns.ts): each file's inline work runs in one. */
  inTurn: InTurn;
}

function failed(file: UploadedFile, code: FileErrorCode, params: FileFailure['params'] = {}): PlannedFile {
  return { ...file, ok: false, failure: { code, params } };
}

async function planFile(
  deps: PlanDeps,
  file: UploadedFile,
  signals: PlanSignals,
  total: RunningTotal,
  budgetSeconds: number,
): Promise<PlannedFile> {
  // Checked before reading the bytes: an oversized part is never copied again.
  if (file.file.size > deps.limits.maxFileBytes) return failed(file, 'file_too_large', { limit: deps.limits.maxFileBytes });
  try {
    const bytes = new Uint8Array(await file.file.arrayBuffer());
    // `bytes` is ours alone: the pool may hand its buffer to a worker instead of copying it. A TXT is
    // decoded inline, in the call: in a turn of its own.
    const { format, text } = await total.inTurn(() =>
      deps.pool.extract(bytes, file.fileName, {
        signal: signals.both,
        limits: deps.limits,
        transfer: true,
        owner: deps.owner,
        gate: deps.gate,
      }),
    );
    const words = await total.inTurn(() => deps.detector.countWords(text));
    if (words < MIN_WORDS) return failed(file, 'text_too_short', { count: words, min: MIN_WORDS });
    total.words += words;
    if (total.words > total.remaining) total.stop.abort();
    return { ...file, ok: true, format, text, words };
  } catch (error) {
    if (signals.client.aborted) throw new ClientGoneError('the client disconnected during extraction');
    if (total.stop.signal.aborted) return failed(file, 'extract_failed'); // discarded: the plan throws OverQuotaError
    if (signals.stopping?.aborted) return failed(file, 'extract_failed'); // discarded: the stream stops before every file
    if (signals.budget.aborted) return failed(file, 'batch_timeout', { seconds: budgetSeconds });
    // The error's own params quote the limit that was hit (pages, inflated bytes, ...).
    if (error instanceof ExtractError) return failed(file, error.code, error.params);
    // Name only: a message could quote file content.
    deps.logger.error('batch_extract_error', { name: (error as Error)?.name ?? 'Error' });
    return failed(file, 'extract_failed');
  }
}

/**
 * Extracts every file concurrently (TXT inline, MD/PDF/DOCX on the pool's workers, queued when
 * all are busy) and counts words with the detector's one definition. A file under MIN_WORDS is
 * `text_too_short`. Throws ClientGoneError when `client` aborts, and OverQuotaError as soon as
 * the words counted exceed `remaining` (the files still extracting are aborted); files still
 * running when `budget` aborts become `batch_timeout`. The result is in upload order.
 */
export async function planBatch(
  deps: PlanDeps,
  files: readonly UploadedFile[],
  signals: { client: AbortSignal; budget: AbortSignal; stopping?: AbortSignal },
  budgetSeconds: number,
  remaining: number = Number.POSITIVE_INFINITY,
): Promise<PlannedFile[]> {
  const total: RunningTotal = { words: 0, remaining, stop: new AbortController(), inTurn: createTurns() };
  const both = AbortSignal.any([signals.client, signals.budget, total.stop.signal, ...(signals.stopping ? [signals.stopping] : [])]);
  const planned = await Promise.allSettled(files.map((file) => planFile(deps, file, { ...signals, both }, total, budgetSeconds)));
  if (signals.client.aborted) throw new ClientGoneError('the client disconnected during extraction');
  if (total.stop.signal.aborted) throw new OverQuotaError(total.words);
  return planned.map((outcome, i) => (outcome.status === 'fulfilled' ? outcome.value : failed(files[i], 'extract_failed')));
}

/** Words of the files that will be scored: exactly what the batch charges. */
export function scorableWords(plan: readonly PlannedFile[]): number {
  return plan.reduce((sum, file) => sum + (file.ok ? file.words : 0), 0);
}
