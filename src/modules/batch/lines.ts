/** The NDJSON lines of a batch response (issue 5's contract) and their builders. */
import type { Analysis, LabelLang, Sensitivity, TextLang, VerdictKey } from '../../engine/types';
import type { FileFormat } from '../../extract';
import { errorMessage } from '../../i18n';
import type { FileFailure } from './plan';

/** Sent before each file is processed. */
export interface ProgressLine {
  type: 'progress';
  index: number;
  fileName: string;
  total: number;
}

/** A scored file: the contract's fields, then extras. */
export interface ResultLine {
  type: 'result';
  index: number;
  fileName: string;
  score: number;
  /** Localized verdict label. */
  verdict: string;
  words: number;
  /** Number of flagged sentences. */
  flagged: number;
  totalDims: number;
  /** Localized document-type label. */
  docType: string;
  verdictKey: VerdictKey;
  docTypeKey: string;
  activeDims: number;
  probability: number;
  ai: boolean;
  language: TextLang;
  sensitivity: Sensitivity;
  format: FileFormat;
}

/** A file that could not be scored; the batch goes on. */
export interface ErrorLine {
  type: 'error';
  index: number;
  fileName: string;
  code: string;
  message: string;
}

/** The last line of a batch that ran to its end. */
export interface CompleteLine {
  type: 'complete';
  total: number;
}

/** Any line of the stream. */
export type BatchLine = ProgressLine | ResultLine | ErrorLine | CompleteLine;

/** Identifies a file in its lines. */
export interface FileRef {
  index: number;
  fileName: string;
}

/** `{"type":"progress",...}` for a file. */
export function progressLine(file: FileRef, total: number): ProgressLine {
  return { type: 'progress', index: file.index, fileName: file.fileName, total };
}

/** `{"type":"result",...}` from an analysis. */
export function resultLine(file: FileRef, format: FileFormat, analysis: Analysis): ResultLine {
  return {
    type: 'result',
    index: file.index,
    fileName: file.fileName,
    score: analysis.score,
    verdict: analysis.verdict,
    words: analysis.words,
    flagged: analysis.textAnnotations.length,
    totalDims: analysis.totalDimensions,
    docType: analysis.docTypeLabel,
    verdictKey: analysis.verdictKey,
    docTypeKey: analysis.docType,
    activeDims: analysis.activeDimensions,
    probability: analysis.probability,
    ai: analysis.ai,
    language: analysis.language,
    sensitivity: analysis.sensitivity,
    format,
  };
}

/** `{"type":"error",...}` with the message localized in `lang`. */
export function errorLine(file: FileRef, failure: FileFailure, lang: LabelLang): ErrorLine {
  return {
    type: 'error',
    index: file.index,
    fileName: file.fileName,
    code: failure.code,
    message: errorMessage(lang, failure.code, failure.params),
  };
}

/** `{"type":"complete","total":n}`. */
export function completeLine(total: number): CompleteLine {
  return { type: 'complete', total };
}

const encoder = new TextEncoder();

/** One line as NDJSON bytes (JSON text never contains a raw newline, so `\n` frames it). */
export function encodeLine(line: BatchLine): Uint8Array {
  return encoder.encode(`${JSON.stringify(line)}\n`);
}
