/** OpenAPI operation of POST /api/detect: parameters, bodies, headers, every error code with an example. */
import type { DocumentDecoration } from 'elysia';
import { en } from '../../i18n/en';
import { ERROR_STATUS, type ErrorCode } from '../../http/errors';
import { DetectRequestSchema, DetectResponseSchema, ErrorBodySchema } from './model';

const rateLimitHeaders = {
  'X-RateLimit-Limit': { description: "Words per month of the key's plan.", schema: { type: 'integer' }, example: 10000 },
  'X-RateLimit-Remaining': { description: 'Words left this month.', schema: { type: 'integer' }, example: 9874 },
  'X-RateLimit-Reset': {
    description: 'Epoch seconds of the next reset (00:00 UTC, first day of next month).',
    schema: { type: 'integer' },
    example: 1798761600,
  },
  'Content-Language': { description: 'Language of labels and messages: en or es.', schema: { type: 'string' }, example: 'en' },
};

const EXAMPLE_TEXT =
  'In today’s fast-paced world, it is important to note that technology plays a crucial role in our lives. Moreover, it offers numerous benefits that enhance productivity and foster innovation across many industries.';

const example200 = {
  success: true,
  score: 87,
  verdict: 'Likely AI',
  docTypeLabel: 'Essay',
  totalDimensions: 12,
  activeDimensions: 4,
  ms_cost: 0.412,
  rate_limit: 10000,
  rate_remaining: 9966,
  dimensions: [{ id: 'stock_phrases', label: 'Stock phrases', detected: true }],
  textAnnotations: [
    {
      sentence: 'In today’s fast-paced world, it is important to note that…',
      start: 0,
      end: 102,
      dims: [{ id: 'stock_phrases', label: 'Stock phrases' }],
    },
  ],
  bullets: [
    { text: 'Uses stock phrases typical of generated text.', example: 'it is important to note that', start: 29, end: 57 },
  ],
  verdictKey: 'likely_ai',
  docType: 'essay',
  language: 'en',
  sensitivity: 'conservative',
  probability: 0.87,
  words: 34,
};

const SAMPLE_PARAMS: Record<string, Record<string, string | number>> = {
  text_too_short: { min: 20, count: 7 },
  payload_too_large: { limit: 1048576 },
  quota_exceeded: { words: 540, remaining: 120, limit: 10000, reset: '2026-12-01T00:00:00.000Z' },
  trial_calls_exhausted: { limit: 500 },
  too_many_files: { limit: 20 },
  invalid_request: { detail: 'the body or parameters do not match the schema' },
};

function sample(code: ErrorCode): string {
  const template = en.errors[code];
  const params = SAMPLE_PARAMS[code] ?? {};
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));
}

const BATCH_LINES =
  'Batch mode: one JSON object per line, flushed as ready. Per file, in upload order: ' +
  '{"type":"progress","index","fileName","total"} then {"type":"result","index","fileName","score","verdict","words","flagged","totalDims","docType",…} ' +
  'or {"type":"error","index","fileName","code","message"} with code one of unsupported_format, corrupt_file, encrypted_pdf, file_too_large, ' +
  'text_too_short, no_text, batch_timeout, internal_error. Last: {"type":"complete","total"}.';

const BATCH_EXAMPLE = [
  { type: 'progress', index: 0, fileName: 'essay.docx', total: 2 },
  {
    type: 'result',
    index: 0,
    fileName: 'essay.docx',
    score: 91,
    verdict: 'AI-generated',
    words: 812,
    flagged: 9,
    totalDims: 12,
    docType: 'Essay',
  },
  { type: 'progress', index: 1, fileName: 'scan.pdf', total: 2 },
  { type: 'error', index: 1, fileName: 'scan.pdf', code: 'no_text', message: en.errors.no_text },
  { type: 'complete', total: 2 },
]
  .map((line) => JSON.stringify(line))
  .join('\n');

/** An OpenAPI response object listing each error code with this status as a named example. */
export function errorResponse(status: number, description: string, extraHeaders: Record<string, object> = {}) {
  const codes = (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => ERROR_STATUS[code] === status);
  return {
    description: `${description} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    headers: extraHeaders,
    content: {
      'application/json': {
        schema: ErrorBodySchema,
        examples: Object.fromEntries(
          codes.map((code) => [code, { value: { success: false, error: { code, message: sample(code) } } }]),
        ),
      },
    },
  };
}

/** The `detail` of the route: Elysia's swagger plugin spreads it into the operation. */
export const detectOperation = {
  tags: ['Detection'],
  summary: 'Detect AI-generated text',
  description:
    'Single mode (application/json): scores one text and explains the score. Batch mode (multipart/form-data, parts `files[]`) streams NDJSON; see the README. ' +
    'Words are runs of Unicode letters/digits (inner apostrophes and hyphens kept); only successful detections are charged. ' +
    'Labels and messages follow `?lang=` or Accept-Language (en, es).',
  security: [{ ApiKeyAuth: [] }],
  parameters: [
    {
      name: 'lang',
      in: 'query',
      required: false,
      schema: { type: 'string', enum: ['en', 'es'] },
      description: 'Label language; overrides Accept-Language.',
    },
    {
      name: 'Accept-Language',
      in: 'header',
      required: false,
      schema: { type: 'string' },
      example: 'es-ES,es;q=0.9,en;q=0.5',
      description: 'es, es-ES, es-419… select Spanish; q-values honoured.',
    },
  ],
  requestBody: {
    required: true,
    content: {
      'application/json': { schema: DetectRequestSchema, example: { text: EXAMPLE_TEXT, sensitivity: 'conservative' } },
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: {
            'files[]': {
              type: 'array',
              items: { type: 'string', format: 'binary' },
              description: 'TXT, MD, DOCX or PDF files (the field may also be named `files`). Format is decided by content.',
            },
            sensitivity: { type: 'string', enum: ['conservative', 'balanced', 'aggressive'] },
            lang: { type: 'string', enum: ['en', 'es'] },
          },
        },
      },
    },
  },
  responses: {
    200: {
      description: 'Analysis of the text (single mode), or an application/x-ndjson stream (batch mode).',
      headers: rateLimitHeaders,
      content: {
        'application/json': { schema: DetectResponseSchema, example: example200 },
        'application/x-ndjson': {
          schema: { type: 'string', description: BATCH_LINES },
          example: BATCH_EXAMPLE,
        },
      },
    },
    400: errorResponse(400, 'The body is not valid. Carries X-RateLimit-* headers.', rateLimitHeaders),
    401: errorResponse(401, 'No key, or an unknown or revoked key. Checked before the body is read.'),
    413: errorResponse(413, 'The body is larger than MAX_BODY_BYTES (single) or the batch limits.', rateLimitHeaders),
    415: errorResponse(415, 'Content-Type is neither application/json nor multipart/form-data.', rateLimitHeaders),
    429: errorResponse(
      429,
      'The month’s words are used up or this text needs more than remain (trial keys: 500 calls in total).',
      {
        ...rateLimitHeaders,
        'Retry-After': {
          description: 'Seconds until the monthly quota resets (absent for trial_calls_exhausted: trial calls never reset).',
          schema: { type: 'integer' },
          example: 86400,
        },
      },
    ),
    503: errorResponse(503, 'The key and quota store is locked or unreachable; nothing was charged.', {
      'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' }, example: 2 },
    }),
  },
  // TypeBox schemas are plain JSON Schema; the OpenAPI typings just do not know TypeBox's types.
} as unknown as DocumentDecoration;
