/** Builders of the NDJSON lines of a batch response (their schemas and types: ./model.ts). */
import type { Analysis } from '../../detector/types';
import type { LabelLang } from '../../contract';
import type { FileFormat } from '../../extract';
import { errorMessage } from '../../i18n';
import type { BatchLine, CompleteLine, ErrorLine, ProgressLine, ResultLine } from './model';
import type { FileFailure } from './plan';

/** Identifies a file in its lines. */
export interface FileRef {
  index: number;
  fileName: string;
}

/** `{"type":"progress",...}` for a file. */
export function progressLine(file: FileRef, total: number): ProgressLine {
  return { type: 'progress', index: file.index, fileName: file.fileName, total };
}

/** A file that was scored: its reference, the format it was read as and the text extracted from it. */
export interface ScoredFile extends FileRef {
  format: FileFormat;
  text: string;
}

/**
 * `{"type":"result",...}` from an analysis, with the version of the model that made it; `full`
 * (the `detail=full` form field) adds the extracted text and single mode's explanation, whose
 * offsets point into that text (a PDF's or DOCX's text is not the bytes the client sent).
 */
export function resultLine(file: ScoredFile, analysis: Analysis, modelVersion: string, full = false): ResultLine {
  const line: ResultLine = {
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
    aiShare: analysis.aiShare,
    measuredError: analysis.measuredError,
    // Only in the lines of a batch that named a profile.
    ...(analysis.calibration ? { calibration: analysis.calibration } : {}),
    language: analysis.language,
    sensitivity: analysis.sensitivity,
    format: file.format,
    modelVersion,
  };
  if (!full) return line;
  return {
    ...line,
    text: file.text,
    dimensions: analysis.dimensions,
    textAnnotations: analysis.textAnnotations,
    bullets: analysis.bullets,
    segments: analysis.segments,
    sentenceScores: analysis.sentenceScores,
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

/** `{"type":"complete","total":n}`; with `unprocessed`, the line of a batch the server stopped early (SIGTERM). */
export function completeLine(total: number, unprocessed?: readonly number[]): CompleteLine {
  if (!unprocessed) return { type: 'complete', total };
  return { type: 'complete', total, stopped: 'shutting_down', unprocessed: [...unprocessed] };
}

const encoder = new TextEncoder();

/** One line as NDJSON bytes (JSON text never contains a raw newline, so `\n` frames it). */
export function encodeLine(line: BatchLine): Uint8Array {
  return encoder.encode(`${JSON.stringify(line)}\n`);
}
