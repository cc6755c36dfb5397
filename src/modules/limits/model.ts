/** The contract of GET /v1/limits, in TypeBox: the 200 body (also the OpenAPI component `Limits`). */
import { t, type Static } from 'elysia';
import { Int, StringEnum } from '../../http/schema';
import { PLAN_IDS } from '../../plans';

const bytes = (description: string) => Int({ minimum: 1, description: `${description} (bytes).` });

/** The 200 body of GET /v1/limits. */
export const LimitsSchema = t.Object(
  {
    plan: StringEnum(PLAN_IDS, { description: 'The key’s plan.' }),
    words: t.Object(
      {
        perMonth: Int({
          minimum: 0,
          description: 'Words per UTC calendar month of the plan (X-RateLimit-Limit). A request needing more is refused with exceeds_plan.',
        }),
        minPerText: Int({ minimum: 1, description: 'Fewest words a text (or a batch file) needs to be scored.' }),
      },
      { description: 'The word quota.' },
    ),
    calls: t.Object(
      {
        lifetime: t.Union([Int({ minimum: 0 }), t.Null()], {
          description: 'Successful calls a trial key may make in its lifetime; null for plans without a cap.',
        }),
      },
      { description: 'Call caps.' },
    ),
    rate: t.Optional(
      t.Object(
        {
          requests: Int({
            minimum: 1,
            description:
              'Detection requests (single and batch) the key may send per window, all at once at most (RateLimit-Policy "requests" q).',
          }),
          windowSeconds: Int({
            minimum: 1,
            description: 'The window (RateLimit-Policy w): after a burst, one request every windowSeconds/requests s.',
          }),
          reads: Int({
            minimum: 1,
            description:
              'Reads of the key’s own usage and limits (GET /v1/usage, /v1/limits) per window: a budget of their own (RateLimit-Policy "reads"), so reading never spends a detection and still answers after detections were refused.',
          }),
        },
        {
          description:
            'The per-key request rates; over one, 429 rate_limited with Retry-After. `requests` counts detections and batches (RateLimit-Policy "requests"), `reads` the usage and limits reports. Absent when the server runs with RATE_LIMITS=off.',
        },
      ),
    ),
    single: t.Object(
      {
        maxBodyBytes: bytes('Largest JSON body of a single text'),
        maxTextChars: Int({
          minimum: 1,
          description: 'Most characters (UTF-16 code units) of the text, as sent and once normalised (413 text_too_long).',
        }),
      },
      { description: 'Single mode (application/json).' },
    ),
    batch: t.Object(
      {
        maxFiles: Int({ minimum: 1, description: 'Most files per request.' }),
        maxFileBytes: bytes('Largest file'),
        maxBatchBytes: bytes('Largest multipart request'),
        maxPdfPages: Int({ minimum: 1, description: 'Most pages read from one PDF.' }),
        maxTextChars: Int({
          minimum: 1,
          description: 'Most characters of text one file of any format may yield (an `extract_limit` line, kind `text_chars`).',
        }),
        timeBudgetSeconds: t.Number({
          exclusiveMinimum: 0,
          description: 'Wall-clock budget of one batch; files not done by then get batch_timeout.',
        }),
        extractTimeoutSeconds: t.Number({ exclusiveMinimum: 0, description: 'Time one PDF or DOCX may take to read (extract_timeout).' }),
      },
      { description: 'Batch mode (multipart/form-data).' },
    ),
    extraction: t.Object(
      {
        throttledAfter: Int({
          minimum: 1,
          description:
            'Files of the key that may hit an extraction limit or time out per window before its PDF, DOCX and MD files get extract_throttled.',
        }),
        windowSeconds: Int({ minimum: 1, description: 'The window of throttledAfter.' }),
      },
      { description: 'The per-key extraction throttle, held across processes and instances.' },
    ),
    calibrations: t.Object(
      {
        maxProfiles: Int({
          minimum: 1,
          description: 'Profiles a key may keep (POST /v1/calibrations past it: 409 calibration_limit_reached).',
        }),
        maxTexts: Int({
          minimum: 1,
          description: 'Texts and AI examples (JSON) or files (multipart) of one calibration request, together.',
        }),
        minTextsPerLanguage: Int({
          minimum: 1,
          description: 'Usable texts a language needs for a profile (else 422 calibration_too_small).',
        }),
        minAiTextsPerLanguage: Int({
          minimum: 1,
          description: 'AI examples a language needs to be adapted to them (fewer: calibration-only, `notAdapted: too_few_ai_texts`).',
        }),
        minWordsPerText: Int({ minimum: 1, description: 'Words a text needs to be used (shorter ones are skipped, not charged).' }),
        maxTextChars: Int({
          minimum: 1,
          description:
            'Most characters of a text or a file’s text, the limit of a detection: longer ones are skipped (`skipped`), not charged.',
        }),
      },
      {
        description:
          'Calibration profiles (POST /v1/calibrations): also bounded by the batch limits (maxBatchBytes, maxFileBytes, timeBudgetSeconds).',
      },
    ),
  },
  { description: 'What this server and the key’s plan allow. Not charged.' },
);

/** The 200 body of GET /v1/limits. */
export type Limits = Static<typeof LimitsSchema>;
