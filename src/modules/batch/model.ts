/**
 * The contract of batch mode, written once in TypeBox: the multipart form and each NDJSON line
 * type. The schemas type the line builders (`Static<>`, src/modules/batch/lines.ts) and are the
 * OpenAPI document's components; enumerations come from their single sources (extraction's error
 * codes, VERDICT_KEYS, the sensitivity schema), so a new per-file code is documented with no edit.
 */
import { t, type Static } from 'elysia';
import { VERDICT_KEYS } from '../../contract';
import type { FileFormat } from '../../extract';
import { EXTRACT_ERROR_STATUS } from '../../extract/errors';
import { Int, keysOf, StringEnum } from '../../http/schema';
import { DetectResponseSchema, LabelLangSchema, ModelVersionSchema, SensitivitySchema } from '../detect/model';
import { MAX_FILE_NAME_CHARS } from './file-name';

/** Why a batch stopped before its end (the complete line's `stopped`): the server received SIGTERM. */
export const STOP_REASONS = ['shutting_down'] as const;

/** Per-file error codes of the NDJSON stream: extraction's, the word minimum, the time budget, a scoring failure, a result that could not be counted. */
export const FILE_ERROR_CODES = [
  ...keysOf(EXTRACT_ERROR_STATUS),
  'text_too_short',
  'batch_timeout',
  'internal_error',
  // The stream ends at this file: its result could not be counted under the charge's lease (issue 33).
  'hold_expired',
  'store_unavailable',
  // The profile named gave this file a score that is not a number (decide/index.ts; issue 44): never answered with it.
  'calibration_invalid',
] as const;
/** A per-file error code. */
export type FileErrorCode = (typeof FILE_ERROR_CODES)[number];

/** Values of the `detail` form field: `full` adds the explanation to each result line. */
export const BATCH_DETAILS = ['full'] as const;

const EXTRACTED = 'With `detail=full` only; offsets are UTF-16 code units of the text extracted from the file';

/** Formats a file can be read as; a Record so the type checker demands every FileFormat. */
const FILE_FORMATS: Record<FileFormat, true> = { txt: true, md: true, pdf: true, docx: true };

/** The multipart/form-data body of batch mode (documentation only: the form is read by form.ts). */
export const BatchFormSchema = t.Object(
  {
    'files[]': t.Array(t.String({ format: 'binary' }), {
      description: 'TXT, MD, DOCX or PDF files (the part may also be named `files`). The format is decided by content, not by name.',
    }),
    sensitivity: t.Optional(SensitivitySchema),
    lang: t.Optional(LabelLangSchema),
    calibration: t.Optional(
      t.String({
        // Swagger UI fills a string field with "string" unless it has an example: empty is "no profile".
        examples: [''],
        description:
          "A calibration profile id of this key: every result line uses its thresholds where it covers the file, and says so in `calibration`. An unknown or another key's id is 404 calibration_not_found before any file is read or charged.",
      }),
    ),
    detail: t.Optional(
      StringEnum(BATCH_DETAILS, {
        description:
          '`full` adds the text extracted from the file (`text`) and single mode’s explanation (`dimensions`, `textAnnotations`, `bullets`, `segments`, `sentenceScores`) to each `result` line, its offsets into that `text`. Absent: the lines keep their short shape.',
      }),
    ),
  },
  { description: 'Batch request (Content-Type: multipart/form-data). Results stream back as NDJSON.' },
);

const fileFields = {
  index: Int({ minimum: 0, description: 'Position of the file in the upload, from 0.' }),
  fileName: t.String({
    maxLength: MAX_FILE_NAME_CHARS,
    description:
      'The part’s file name, without control and bidi characters; a name over 255 characters is shortened in the middle (`…`), keeping its extension.',
  }),
};

/** Sent before each file is processed. */
export const ProgressLineSchema = t.Object(
  { type: t.Literal('progress'), ...fileFields, total: Int({ minimum: 1, description: 'Files in the batch.' }) },
  // The title names the alternative in Swagger UI's oneOf (it showed `(any | any | any | any)`, then `(object | ...)`).
  { title: 'BatchProgressLine', description: 'A file is about to be scored.' },
);

const single = DetectResponseSchema.properties;

/** A scored file: the contract's fields, then extras. */
export const ResultLineSchema = t.Object(
  {
    type: t.Literal('result'),
    ...fileFields,
    score: single.score,
    verdict: single.verdict,
    words: single.words,
    flagged: Int({ minimum: 0, description: 'Number of flagged sentences.' }),
    totalDims: single.totalDimensions,
    docType: t.String({ description: 'Localized document type (single mode’s docTypeLabel).' }),
    verdictKey: StringEnum(VERDICT_KEYS, { description: 'Stable verdict id.' }),
    docTypeKey: single.docType,
    activeDims: single.activeDimensions,
    probability: single.probability,
    ai: t.Boolean({
      description: 'True when the verdict at this sensitivity says the file is, or contains, AI writing (ai, likely_ai, mixed).',
    }),
    aiShare: single.aiShare,
    measuredError: single.measuredError,
    calibration: single.calibration,
    language: single.language,
    sensitivity: SensitivitySchema,
    format: StringEnum(keysOf(FILE_FORMATS), { description: 'Format the file was read as.' }),
    modelVersion: ModelVersionSchema,
    text: t.Optional(
      t.String({
        description:
          'With `detail=full` only: the text extracted from the file, exactly as it was scored (trimmed), so that the offsets of the fields below can be drawn. Bounded like every file: at most MAX_TEXT_CHARS characters (default 10 Mi) and MAX_FILE_BYTES bytes of input (default 10 MiB).',
      }),
    ),
    dimensions: t.Optional(t.Array(single.dimensions.items, { description: `Every dimension. ${EXTRACTED}.` })),
    textAnnotations: t.Optional(t.Array(single.textAnnotations.items, { description: `Flagged sentences. ${EXTRACTED}.` })),
    bullets: t.Optional(t.Array(single.bullets.items, { description: `Plain-language explanations. ${EXTRACTED}.` })),
    segments: t.Optional(t.Array(single.segments.items, { description: `Human and AI passages. ${EXTRACTED}.` })),
    sentenceScores: t.Optional(t.Array(single.sentenceScores.items, { description: `Each sentence's AI score, 0-100. ${EXTRACTED}.` })),
  },
  { title: 'BatchResultLine', description: 'A scored file.' },
);

/** A file that could not be scored; the batch goes on. */
export const ErrorLineSchema = t.Object(
  {
    type: t.Literal('error'),
    ...fileFields,
    code: StringEnum(FILE_ERROR_CODES, { description: 'Stable snake_case code: branch on this, never on the message.' }),
    message: t.String({ description: 'Human-readable message in the negotiated language.' }),
  },
  { title: 'BatchErrorLine', description: 'A file that could not be scored; the other files go on.' },
);

/** The last line of a batch that ran to its end. */
export const CompleteLineSchema = t.Object(
  {
    type: t.Literal('complete'),
    total: Int({ minimum: 1, description: 'Files in the batch.' }),
    stopped: t.Optional(
      StringEnum(STOP_REASONS, {
        description:
          'Present when the server stopped the batch before its end: `shutting_down` (it received SIGTERM). The files in `unprocessed` were not scored nor charged; send them again.',
      }),
    ),
    unprocessed: t.Optional(
      t.Array(Int({ minimum: 0 }), { description: 'With `stopped`: the indices of the files that were not processed, in upload order.' }),
    ),
  },
  {
    title: 'BatchCompleteLine',
    description:
      'The last line of a batch: after every file, or with `stopped` and `unprocessed` when the server stopped it early (absent when the connection was cut).',
  },
);

/** Sent before each file is processed. */
export type ProgressLine = Static<typeof ProgressLineSchema>;
/** A scored file. */
export type ResultLine = Static<typeof ResultLineSchema>;
/** A file that could not be scored. */
export type ErrorLine = Static<typeof ErrorLineSchema>;
/** The last line of a complete batch. */
export type CompleteLine = Static<typeof CompleteLineSchema>;
/** Any line of the stream. */
export type BatchLine = ProgressLine | ResultLine | ErrorLine | CompleteLine;

/** The line schemas by their `type`, in stream order (the document's discriminated union). */
export const BATCH_LINE_SCHEMAS = {
  progress: ProgressLineSchema,
  result: ResultLineSchema,
  error: ErrorLineSchema,
  complete: CompleteLineSchema,
} as const satisfies Record<BatchLine['type'], unknown>;
