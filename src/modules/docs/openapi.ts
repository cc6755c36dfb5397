/**
 * How POST /api/detect appears in the OpenAPI document: the operation (the route's `detail`) and
 * the components it references. Nothing here restates a field: bodies are the TypeBox schemas of
 * ../detect/model.ts and ../batch/model.ts, error codes and statuses are ERROR_STATUS's, and examples are
 * real outputs (./examples.json).
 */
import type { DocumentDecoration } from 'elysia';
import { ERROR_STATUS, ErrorBodySchema, SENT_ERROR_CODES, type ErrorCode } from '../../http/errors';
import { DEFAULT_ERROR_RESPONSE } from '../../http/schema';
import { BATCH_DETAILS, BATCH_LINE_SCHEMAS, BatchFormSchema } from '../batch/model';
import { EXAMPLES } from './examples';
import { DetectRequestSchema, DetectResponseSchema, LabelLangSchema } from '../detect/model';

/** Names of the document's component schemas, as `#/components/schemas/<name>`. */
const LINE_COMPONENTS = {
  progress: 'BatchProgressLine',
  result: 'BatchResultLine',
  error: 'BatchErrorLine',
  complete: 'BatchCompleteLine',
} as const satisfies Record<keyof typeof BATCH_LINE_SCHEMAS, string>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Errors any request can get, documented once as the `default` response of every operation. */
const GENERIC_CODES: readonly ErrorCode[] = ['not_found', 'method_not_allowed', 'internal_error'];

const BATCH_STREAM =
  'Batch mode answers `application/x-ndjson`: one JSON object per line, each flushed as it is ready. ' +
  'Per file, in upload order: a `progress` line, then a `result` or an `error` line; last, a `complete` line ' +
  '(absent when the batch was cut short). Each line is one of the `BatchLine` schemas, told apart by `type`.';

/** The discriminated union of NDJSON lines, referencing one component per line type. */
const batchLineSchema = {
  title: 'BatchLine',
  description: 'One line of a batch NDJSON stream.',
  // A `type` beside each reference (OpenAPI 3.1 allows siblings of $ref): Swagger UI's Schemas list sums
  // up a oneOf from its members' types before resolving references, and read `(any | any | any | any)` (issue 28).
  oneOf: Object.values(LINE_COMPONENTS).map((name) => ({ ...ref(name), type: 'object' })),
  discriminator: {
    propertyName: 'type',
    mapping: Object.fromEntries(Object.entries(LINE_COMPONENTS).map(([type, name]) => [type, ref(name).$ref])),
  },
};

/** Component schemas of POST /api/detect, by name. */
export const DETECT_SCHEMAS = {
  DetectRequest: DetectRequestSchema,
  DetectResponse: DetectResponseSchema,
  ErrorBody: ErrorBodySchema,
  BatchForm: BatchFormSchema,
  BatchLine: batchLineSchema,
  ...Object.fromEntries(
    Object.entries(LINE_COMPONENTS).map(([type, name]) => [name, BATCH_LINE_SCHEMAS[type as keyof typeof LINE_COMPONENTS]]),
  ),
};

const integerHeader = (description: string, example?: number) => ({
  description,
  schema: { type: 'integer' },
  ...(example === undefined ? {} : { example }),
});

const single = EXAMPLES.single.response;
/**
 * The monthly word quota (issue 32: two kinds of limit share the words "rate limit"). These
 * X-RateLimit-* names and the body's rate_limit/rate_remaining are the seed's contract and count
 * WORDS PER MONTH; the request rate is RateLimit/RateLimit-Policy (REQUEST_RATE_HEADERS).
 */
export const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': integerHeader(
    "Monthly WORD quota, not a request rate: words per UTC calendar month of the key's plan (the body's `rate_limit`). The request rate is `RateLimit-Policy`.",
    single.rate_limit,
  ),
  'X-RateLimit-Remaining': integerHeader(
    'Monthly WORD quota: words left this month (the body’s `rate_remaining`), not requests. Requests left now: `RateLimit`.',
    single.rate_remaining,
  ),
  'X-RateLimit-Reset': integerHeader(
    'Monthly WORD quota: epoch seconds of its next reset (00:00 UTC, first day of next month). Not the request rate’s reset (`RateLimit` t).',
  ),
};
/** The per-key request rate of every answer to a request with a valid key (IETF draft-ietf-httpapi-ratelimit-headers-10). */
export const REQUEST_RATE_HEADERS = {
  'RateLimit-Policy': {
    description:
      'REQUEST rate of the key, not words: `"<bucket>";q=<requests>;w=<seconds>`. All q may come at once, then one every w/q s. The bucket is `requests` on detections (single and batch) and on making a calibration profile, and `reads` on GET /v1/usage and /v1/limits and on listing, reading and deleting profiles, which have a budget of their own. Words per month: `X-RateLimit-*`.',
    schema: { type: 'string' },
    example: '"requests";q=60;w=60',
  },
  RateLimit: {
    description:
      'REQUESTS left in that bucket, not words: `"<bucket>";r=<requests the key may send now>;t=<seconds until all q are back>`.',
    schema: { type: 'string' },
    example: '"requests";r=59;t=1',
  },
};
/** The headers of a 429 rate_limited. */
const RATE_LIMITED_HEADERS = {
  ...REQUEST_RATE_HEADERS,
  'Retry-After': integerHeader('Seconds until the key may send its next request (1 for a free key).'),
};
/** The WWW-Authenticate challenges of a 401. */
const WWW_AUTHENTICATE = {
  'WWW-Authenticate': {
    description:
      'RFC 9110 §11.6.1 challenges: `Bearer` (RFC 6750; error="invalid_token" for an unknown or revoked key) and `ApiKey` naming the X-API-Key header.',
    schema: { type: 'string' },
    example: 'Bearer realm="ai-detector", ApiKey realm="ai-detector", header="X-API-Key"',
  },
};
/** Headers of every answer: the label language and the request id. */
export const CONTENT_LANGUAGE = {
  'Content-Language': { description: 'Language of labels and messages.', schema: LabelLangSchema, example: 'en' },
  'X-Request-Id': {
    description: 'The request’s id: the client’s own X-Request-Id when valid, else a fresh UUID. Written in the log line.',
    schema: { type: 'string' },
    example: 'support-ticket-42',
  },
};

/** The X-Request-Id request header, shared by every operation. */
export const REQUEST_ID_PARAMETER = {
  name: 'X-Request-Id',
  in: 'header',
  required: false,
  schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,128}$' },
  description: 'Your id for this request, echoed in the answer and the log line; any other value is replaced by a fresh UUID.',
};

/** What each error status means on this operation, and the headers it carries. */
const STATUS_DOCS: Record<number, { description: string; headers?: object }> = {
  400: { description: 'The body is not valid.', headers: RATE_LIMIT_HEADERS },
  401: { description: 'No key, or an unknown or revoked key. Checked before the body is read.', headers: WWW_AUTHENTICATE },
  413: {
    description:
      'The body is larger than MAX_BODY_BYTES (single) or the batch limits; or (`exceeds_plan`) the request needs more words than the plan gives in a whole month, so it can never succeed: split it. Not retryable as is.',
    headers: RATE_LIMIT_HEADERS,
  },
  415: { description: 'Content-Type is neither application/json nor multipart/form-data.', headers: RATE_LIMIT_HEADERS },
  429: {
    description:
      '`rate_limited`: more requests than the key’s rate (RateLimit-Policy); retry after `Retry-After` seconds (short). ' +
      '`quota_exceeded`: this request needs more words than remain this month; no Retry-After: the reset is `X-RateLimit-Reset` and the body’s `resetAt`. ' +
      '`trial_calls_exhausted`: a trial key’s 500 calls are used; they never reset. The body’s `needed`, `remaining`, `limit`, `unit` and `resetAt` say the numbers.',
    headers: {
      ...RATE_LIMIT_HEADERS,
      ...REQUEST_RATE_HEADERS,
      'Retry-After': integerHeader('rate_limited only: seconds until the key may send its next request.'),
    },
  },
  503: {
    description:
      '`store_unavailable`: the key and quota store is locked or unreachable; nothing was charged. ' +
      '`hold_expired`: the server process stalled past the lease of this request’s charge, which was given back; nothing was charged. Retry after `Retry-After`.',
    headers: { 'Retry-After': integerHeader('Seconds to wait before trying again.') },
  },
  409: {
    description: 'The first request with this Idempotency-Key is still running (after waiting up to 10 s for it). Retry to get its answer.',
    headers: { 'Retry-After': integerHeader('Seconds to wait before retrying.') },
  },
  422: {
    description: 'This Idempotency-Key was already used by this API key with another body (within 24 hours).',
    headers: RATE_LIMIT_HEADERS,
  },
  404: { description: 'The `calibration` field names no profile of this key (unknown, deleted, or another key’s); nothing was charged.' },
  405: {
    description: 'The path exists but not with this method.',
    headers: { Allow: { description: 'The methods the path supports.', schema: { type: 'string' }, example: 'POST' } },
  },
};

/** An error response listing its codes, each with its real example when one was recorded. */
export function errorResponse(codes: readonly ErrorCode[], description: string, headers: object = {}) {
  const examples = codes.flatMap((code) => {
    const example = EXAMPLES.errors[code];
    return example ? [[code, { summary: example.request, value: example.body }] as const] : [];
  });
  return {
    description: `${description} Codes: ${codes.map((code) => `\`${code}\``).join(', ')}.`,
    headers: { ...CONTENT_LANGUAGE, ...headers },
    content: { 'application/json': { schema: ref('ErrorBody'), examples: Object.fromEntries(examples) } },
  };
}

/** Codes only POST /v1/calibrations answers: documented there, not on detection. */
export const CALIBRATION_CREATE_CODES: readonly ErrorCode[] = [
  'calibration_limit_reached',
  'too_many_texts',
  'calibration_timeout',
  'calibration_too_small',
  'calibration_empty',
  'calibration_ai_without_human',
];

/** Error responses of POST /api/detect by status, from ERROR_STATUS (a new code or status appears here by itself). */
function detectErrorResponses() {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of SENT_ERROR_CODES) {
    if (GENERIC_CODES.includes(code) || CALIBRATION_CREATE_CODES.includes(code)) continue;
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => {
      const docs = STATUS_DOCS[status] ?? { description: 'The request could not be served.' };
      return [String(status), errorResponse(codes, docs.description, docs.headers)];
    }),
  );
}

/** Shared responses (components.responses). */
export const DETECT_RESPONSES = {
  Error: errorResponse(
    GENERIC_CODES,
    'Any route: 404 for an unknown path, 405 (with `Allow`) for a known path and another method, 500 for a bug.',
    STATUS_DOCS[405].headers,
  ),
};

const batchExamples = Object.fromEntries(
  EXAMPLES.batch.lines.map((line, i) => [`${line.type}_${i}`, { summary: `Line ${i + 1} (${line.type})`, value: line }]),
);

/** The `detail` of the route: Elysia's swagger plugin spreads it into the operation. */
export const detectOperation = {
  operationId: 'detect',
  tags: ['Detection'],
  summary: 'Detect AI-generated text',
  description:
    'Scores one text (application/json) and explains the score. ' +
    'Words are runs of Unicode letters/digits (inner apostrophes and hyphens kept); only successful detections are charged. ' +
    'Labels and messages follow `?lang=` or Accept-Language (en, es).\n\n' +
    'Files go to `POST /v1/detect/batch` (multipart/form-data, NDJSON answer), documented there with one schema per answer so that ' +
    'generated clients need no narrowing. For existing clients this path also takes that form and answers exactly as /v1/detect/batch does.',
  security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
  parameters: [
    { name: 'lang', in: 'query', required: false, schema: LabelLangSchema, description: 'Label language; overrides Accept-Language.' },
    {
      name: 'detail',
      in: 'query',
      required: false,
      schema: { type: 'string', enum: [...BATCH_DETAILS] },
      description:
        'Batch mode: as the form field `detail` (`full` adds the explanation to each result line). Either place turns it on; another value in either is 400 `invalid_request`. Single mode always answers in full.',
    },
    {
      name: 'Accept-Language',
      in: 'header',
      required: false,
      schema: { type: 'string' },
      example: 'en',
      description: 'Label language by RFC 9110 negotiation: es, es-ES, es-419… select Spanish; q-values honoured; default en.',
    },
    REQUEST_ID_PARAMETER,
    {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', pattern: '^[\\x21-\\x7E]{1,255}$' },
      // No `example`: Swagger UI's "Try it out" pre-fills examples, and one fixed key made every later try
      // replay the first answer (or 422 once the text changed) for 24 hours (issue 28).
      description:
        'A fresh value per logical request, e.g. a UUID. Makes a retry safe: the same key from the same API key with the same body (for a batch: the same files and fields) within 24 hours gets the first successful answer again, with `Idempotent-Replayed: true`, charged once. Another body: 422 `idempotency_key_reused`. Only successful answers are kept; they are stored encrypted (see docs/api.md).',
    },
  ],
  requestBody: {
    required: true,
    content: {
      'application/json': { schema: ref('DetectRequest'), example: EXAMPLES.single.request },
    },
  },
  responses: {
    200: {
      description: 'Analysis of the text.',
      headers: {
        ...RATE_LIMIT_HEADERS,
        ...REQUEST_RATE_HEADERS,
        ...CONTENT_LANGUAGE,
        'Idempotent-Replayed': {
          description: '`true` when this is the kept answer of an earlier request with the same Idempotency-Key (nothing was charged).',
          schema: { type: 'string', enum: ['true'] },
        },
      },
      content: {
        'application/json': { schema: ref('DetectResponse'), example: single },
      },
    },
    ...detectErrorResponses(),
    default: DEFAULT_ERROR_RESPONSE,
  },
  // TypeBox schemas are plain JSON Schema; the OpenAPI typings just do not know TypeBox's types.
} as unknown as DocumentDecoration;

/**
 * POST /v1/detect/batch (issue 45 item 8): batch mode under its own operation, one request and one answer
 * media type, so a generated client (openapi-typescript + openapi-fetch) types `data` without narrowing.
 */
export const detectBatchOperation = {
  ...(detectOperation as Record<string, unknown>),
  operationId: 'detectBatch',
  summary: 'Detect AI-generated text in files (batch)',
  description:
    'Batch mode: files (parts `files[]`: TXT, MD, DOCX, PDF) scored one by one, streamed as NDJSON lines. ' +
    'Words are runs of Unicode letters/digits (inner apostrophes and hyphens kept); only files delivered are charged. ' +
    'Labels and messages follow `?lang=`, the form field `lang` or Accept-Language (en, es). Another Content-Type is 415 `unsupported_media_type`.\n\n' +
    BATCH_STREAM,
  requestBody: { required: true, content: { 'multipart/form-data': { schema: ref('BatchForm') } } },
  responses: {
    200: {
      description: `An NDJSON stream. ${BATCH_STREAM}`,
      headers: (detectOperation as unknown as { responses: { 200: { headers: unknown } } }).responses[200].headers,
      content: { 'application/x-ndjson': { schema: ref('BatchLine'), examples: batchExamples } },
    },
    ...detectErrorResponses(),
    default: DEFAULT_ERROR_RESPONSE,
  },
} as unknown as DocumentDecoration;

/** POST /api/detect: the seed's path, the same handler and contract as POST /v1/detect. */
export const detectAliasOperation = {
  ...detectOperation,
  operationId: 'detectAlias',
  summary: 'Detect AI-generated text (alias of POST /v1/detect)',
  description: `The seed's path, kept for existing clients: the same handler, request and answers as \`POST /v1/detect\`. New clients should use /v1.\n\n${detectOperation.description}`,
} as DocumentDecoration;

/** GET /v1/usage in the document (mounted by src/modules/usage; app.ts hands it over). */
export const usageOperation = {
  operationId: 'usage',
  tags: ['Account'],
  summary: 'Words and calls used and left',
  description:
    'The key’s plan, the current quota period (a UTC calendar month), words used and left, successful calls this period and, for trial keys, lifetime calls left. ' +
    'Not charged. The numbers are those of the X-RateLimit-* headers (the monthly word quota), which this answer carries too. ' +
    'Takes from the key’s `reads` budget (RateLimit-Policy `"reads"`), never from its detections’ `requests`: reading usage after each detection halves nothing, and it still answers while detections are refused.',
  security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
  responses: {
    200: {
      description: 'The key’s usage.',
      headers: { ...RATE_LIMIT_HEADERS, ...REQUEST_RATE_HEADERS, ...CONTENT_LANGUAGE },
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Usage' },
          example: EXAMPLES.usage,
        },
      },
    },
    401: errorResponse(['missing_api_key', 'invalid_api_key'], 'No key, or an unknown or revoked key.', WWW_AUTHENTICATE),
    429: errorResponse(
      ['rate_limited'],
      'More reads than the key’s `reads` budget (RateLimit-Policy `"reads"`); retry after `Retry-After` seconds.',
      RATE_LIMITED_HEADERS,
    ),
    503: errorResponse(['store_unavailable'], 'The key and quota store is locked or unreachable.', {
      'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
    }),
    default: DEFAULT_ERROR_RESPONSE,
  },
};

/** GET /v1/limits in the document (mounted by src/modules/limits; app.ts hands it over). */
export const limitsOperation = {
  operationId: 'limits',
  tags: ['Account'],
  summary: 'What this server and the key’s plan allow',
  description:
    'The key’s plan (words per month, lifetime calls, request rate) and the server’s limits (body and file sizes, files per batch, PDF pages, text length, time budgets, the extraction throttle), read from the values that enforce them. Not charged; takes from the key’s `reads` budget (RateLimit-Policy `"reads"`, `rate.reads`), never from its detections’ `requests`.',
  security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
  responses: {
    200: {
      description: 'The limits.',
      headers: { ...REQUEST_RATE_HEADERS, ...CONTENT_LANGUAGE },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Limits' }, example: EXAMPLES.limits } },
    },
    401: errorResponse(['missing_api_key', 'invalid_api_key'], 'No key, or an unknown or revoked key.', WWW_AUTHENTICATE),
    429: errorResponse(
      ['rate_limited'],
      'More reads than the key’s `reads` budget (RateLimit-Policy `"reads"`); retry after `Retry-After` seconds.',
      RATE_LIMITED_HEADERS,
    ),
    default: DEFAULT_ERROR_RESPONSE,
  },
};

const KEY_ERRORS = {
  401: errorResponse(['missing_api_key', 'invalid_api_key'], 'No key, or an unknown or revoked key.', WWW_AUTHENTICATE),
  429: errorResponse(
    ['rate_limited'],
    'More requests than the key’s rate (RateLimit-Policy); retry after `Retry-After` seconds.',
    RATE_LIMITED_HEADERS,
  ),
  503: errorResponse(['store_unavailable'], 'The store is locked or unreachable; nothing was charged or changed.', {
    'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
  }),
};

const CALIBRATION_ID_PARAMETER = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^cal_[0-9A-Za-z]{22}$' },
  description: 'A profile id of this key (`cal_` and 22 letters and digits).',
};

const NOT_FOUND = {
  400: errorResponse(['invalid_calibration_id'], 'The id does not have the shape of a profile id.'),
  404: errorResponse(['calibration_not_found'], 'No profile with this id for this key: unknown, deleted, or another key’s.'),
};

const calibrationExample = EXAMPLES.calibration;

/**
 * The calibration routes in the document (mounted by src/modules/calibrations; app.ts hands them over).
 * Tag `Calibration`: making a profile is charged like a detection of its texts.
 */
export const calibrationOperations = {
  create: {
    operationId: 'createCalibration',
    tags: ['Calibration'],
    summary: 'Make a calibration profile from known-human texts',
    description:
      'Scores known-human texts of one population (JSON `texts`, or files in `files[]`), and keeps per language their scores (never the texts), the thresholds they imply for each sensitivity and the error measured on them. ' +
      'A language needs 50 usable texts (20+ words each); texts under 20 words, and files that cannot be read, are skipped (`skipped`) and not charged. ' +
      'Charged like a detection of the usable texts (their words, one call); refused before the body is read when the key keeps 20 profiles or has fewer than 20 words left. ' +
      'Bounded like a batch: MAX_BATCH_BYTES, MAX_FILE_BYTES a file, at most 5,000 texts or files, BATCH_TIME_BUDGET_MS (else 413 `calibration_timeout`; large archives: `bun run calibrate`). ' +
      'Not idempotent: a retry makes another profile.',
    security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
    parameters: [REQUEST_ID_PARAMETER],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: ref('CreateCalibration'),
          example: { name: 'Essays 2019-2021', texts: ['First essay…', 'Second essay…'] },
        },
        'multipart/form-data': { schema: ref('CalibrationForm') },
      },
    },
    responses: {
      201: {
        description: 'The profile, made and stored.',
        headers: {
          ...RATE_LIMIT_HEADERS,
          ...REQUEST_RATE_HEADERS,
          ...CONTENT_LANGUAGE,
          Location: { description: 'The profile’s URL.', schema: { type: 'string' }, example: '/v1/calibrations/cal_…' },
        },
        content: { 'application/json': { schema: ref('Calibration'), ...(calibrationExample ? { example: calibrationExample } : {}) } },
      },
      400: errorResponse(
        ['invalid_json', 'invalid_request'],
        'The body is not valid: a missing or empty `name`, `texts` not an array of strings, a form without files.',
        RATE_LIMIT_HEADERS,
      ),
      409: errorResponse(['calibration_limit_reached'], 'The key keeps 20 profiles already: delete one.'),
      413: errorResponse(
        ['payload_too_large', 'too_many_files', 'too_many_texts', 'calibration_timeout', 'exceeds_plan'],
        'Over a limit: the body (MAX_BATCH_BYTES), more than 5,000 texts or files, the time budget, or more words than the plan gives in a month.',
        RATE_LIMIT_HEADERS,
      ),
      415: errorResponse(['unsupported_media_type'], 'Content-Type is neither application/json nor multipart/form-data.'),
      422: errorResponse(
        ['calibration_too_small', 'calibration_empty', 'calibration_ai_without_human'],
        'The set cannot make a profile: a language with texts has fewer than 50 usable ones, none is usable, or a language has AI examples and no human text. Nothing was charged (unless only scoring could see it: the message then says so).',
        RATE_LIMIT_HEADERS,
      ),
      ...KEY_ERRORS,
      429: errorResponse(
        ['rate_limited', 'quota_exceeded', 'trial_calls_exhausted'],
        'The request rate, or not enough words left this month for the texts (checked before the body is read, then for the texts counted).',
        STATUS_DOCS[429].headers,
      ),
      default: DEFAULT_ERROR_RESPONSE,
    },
  },
  list: {
    operationId: 'listCalibrations',
    tags: ['Calibration'],
    summary: 'The key’s calibration profiles',
    description: 'Every profile of the key, newest first, with `stale: true` for those made with another model. Not charged.',
    security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
    parameters: [REQUEST_ID_PARAMETER],
    responses: {
      200: {
        description: 'The profiles.',
        headers: { ...REQUEST_RATE_HEADERS, ...CONTENT_LANGUAGE },
        content: { 'application/json': { schema: ref('CalibrationList') } },
      },
      ...KEY_ERRORS,
      default: DEFAULT_ERROR_RESPONSE,
    },
  },
  get: {
    operationId: 'getCalibration',
    tags: ['Calibration'],
    summary: 'One calibration profile',
    description:
      'The profile: per language its texts, covered document types and lengths, and per sensitivity its threshold and the error measured on its texts. `stale: true` when the running model is not the one that scored its texts: detections then use the model’s thresholds (`reason: model_changed`); make it again from the same texts. Not charged.',
    security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
    parameters: [CALIBRATION_ID_PARAMETER, REQUEST_ID_PARAMETER],
    responses: {
      200: {
        description: 'The profile.',
        headers: { ...REQUEST_RATE_HEADERS, ...CONTENT_LANGUAGE },
        content: { 'application/json': { schema: ref('Calibration') } },
      },
      ...NOT_FOUND,
      ...KEY_ERRORS,
      default: DEFAULT_ERROR_RESPONSE,
    },
  },
  remove: {
    operationId: 'deleteCalibration',
    tags: ['Calibration'],
    summary: 'Delete a calibration profile',
    description:
      'Deletes the profile. Detections naming it answer 404 `calibration_not_found` at once on this instance and within a second on the others sharing the database.',
    security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
    parameters: [CALIBRATION_ID_PARAMETER, REQUEST_ID_PARAMETER],
    responses: {
      204: { description: 'Deleted.', headers: { ...CONTENT_LANGUAGE } },
      ...NOT_FOUND,
      ...KEY_ERRORS,
      default: DEFAULT_ERROR_RESPONSE,
    },
  },
};
