/**
 * The contract of single mode (POST /api/detect, application/json), written once in TypeBox: the
 * same schemas validate the request (validateDetectBody), type the code (`Static<>`) and are the
 * OpenAPI document's components (src/modules/docs/openapi.ts). Enumerations are the engine's
 * and explain's own constants, so a new verdict key, dimension or document type shows up here
 * with no second edit. A new response field is one property in DetectResponseSchema (then set
 * it in toDetectResponse, which the type checker asks for, and run `bun run docs:examples`).
 */
import { t, type Static } from 'elysia';
import { BULLET_LEANINGS } from '../../detector/types';
import { DEFAULT_SENSITIVITY, LABEL_LANGS, SENSITIVITIES, TEXT_LANGS, VERDICT_KEYS, type Sensitivity } from '../../contract';
import { DIMENSIONS } from '../../detector/explain/dimensions';
import { PROFILE_REASONS } from '../../detector/decide/profile';
import { DOC_TYPES } from '../../detector/score/doctype';
import { ApiError } from '../../http/errors';
import { compileSchema, Int, StringEnum } from '../../http/schema';
import { OtherWritersSchema } from './other-writers';

/** How readily the verdict calls a text AI: the one schema of the mode, for JSON and form fields. */
export const SensitivitySchema = StringEnum(SENSITIVITIES, {
  description: 'How readily the verdict calls a text AI. It moves the verdict thresholds, never the score.',
});

/** Label and message language (`?lang=`, the batch `lang` field). */
export const LabelLangSchema = StringEnum(LABEL_LANGS, {
  description: 'Language of labels and messages; overrides Accept-Language.',
});

/** Request body of single mode. Unknown fields are ignored. */
export const DetectRequestSchema = t.Object(
  {
    text: t.String({ description: 'The text to analyze, at least 20 words. Never stored or logged.' }),
    sensitivity: t.Optional(
      // No `default` keyword: openapi-typescript would make a field with a default required in clients.
      t.Union([SensitivitySchema, t.Null()], { description: `Verdict sensitivity; absent or null means ${DEFAULT_SENSITIVITY}.` }),
    ),
    calibration: t.Optional(
      t.Union([t.String(), t.Null()], {
        description:
          "A calibration profile id of this key (POST /v1/calibrations): the verdict uses the profile's thresholds where it covers the text, and the answer says so in `calibration`. Absent or null: the model's own thresholds. An unknown or another key's id is 404 calibration_not_found, before anything is charged.",
      }),
    ),
  },
  { description: 'Single-text request (Content-Type: application/json).' },
);

/** The model version of a result (src/model-version.ts); the same field in single mode, batch lines, `detect --jsonl` and /health. */
export const ModelVersionSchema = t.String({
  description:
    'The model that scored this: `<format>.<featureVersion>-<first 12 hex digits of the SHA-256 of the model files>`, derived from the loaded files (a retrained model changes it).',
});

const DimensionIdSchema = StringEnum(DIMENSIONS.map((d) => d.id) as [string, ...string[]], {
  description: 'Stable dimension id.',
});

const DimensionSchema = t.Object({
  id: DimensionIdSchema,
  label: t.String({ description: 'Localized name of the dimension.' }),
  detected: t.Boolean({ description: 'True when this signal is present in the text.' }),
  enabled: t.Boolean({
    description:
      "False when the model does not use the dimension for the text's language (it switched it off there: in its tests it did not separate human from AI text in that language, English included). A disabled dimension is never detected, is not counted in totalDimensions, and no bullet rests on it: not its own, nor the human-side signal that is its other face (concrete_details for low_specificity, personal_voice and informal_register for formal_register, varied_rhythm for low_burstiness).",
  }),
});

const DimensionRefSchema = t.Object({ id: DimensionIdSchema, label: t.String({ description: 'Localized name.' }) });

const OFFSET = 'offset in UTF-16 code units of the text exactly as submitted';

const TextAnnotationSchema = t.Object({
  sentence: t.String({ description: 'The sentence (at most 200 characters, "…" when shortened).' }),
  start: Int({ minimum: 0, description: `Start ${OFFSET} (inclusive).` }),
  end: Int({ minimum: 0, description: `End ${OFFSET} (exclusive).` }),
  dims: t.Array(DimensionRefSchema, { description: 'Dimensions flagged in this sentence.' }),
});

const BulletSchema = t.Object({
  id: t.String({
    description:
      "The signal: a dimension id (`stock_phrases`...), or a human-side or neutral signal (`personal_voice`, `varied_rhythm`, `concrete_details`, `informal_register`, `mixed_authorship`, `short_text`, `language_limit`, `uncertain_score`, `ai_passage`, `short_style`, `no_style_signals`); `lexical_fingerprint` names the dimension when it is detected (in a `mixed` text it quotes the AI passage's score and one of its sentences), `lexical_reading` the model's overall reading otherwise. A bullet named after a dimension appears only when that dimension is detected, and a count in it is the number of sentences highlighted with that dimension.",
  }),
  leaning: StringEnum(BULLET_LEANINGS, {
    description:
      'Which way the signal points. The first bullet supports the verdict: `ai` for ai, likely_ai and mixed; `human` for human and likely_human; `neutral` (why there is no verdict) for inconclusive: `short_text` (too short for this sensitivity), `language_limit` (too short for any sensitivity in the text’s language), `uncertain_score`, `ai_passage` or `obfuscation`. `short_text` and `language_limit` appear only beside `inconclusive`.',
  }),
  text: t.String({ description: 'Localized explanation of one finding.' }),
  example: t.String({
    description:
      'A passage of the submitted text: text.slice(start, end). At most 200 characters: a longer passage is cut at a word boundary inside its sentence (show it with "…").',
  }),
  start: Int({ minimum: 0, description: `Start ${OFFSET} (inclusive).` }),
  end: Int({ minimum: 0, description: `End ${OFFSET} (exclusive).` }),
});

const SegmentSchema = t.Object({
  start: Int({ minimum: 0, description: `Start ${OFFSET} (inclusive), on a sentence boundary.` }),
  end: Int({ minimum: 0, description: `End ${OFFSET} (exclusive); the next passage starts here.` }),
  label: StringEnum(['ai', 'human'] as const, { description: 'Who the passage reads as written by.' }),
  score: Int({ minimum: 0, maximum: 100, description: "The passage's mean AI likelihood, 0-100." }),
});

const MeasuredErrorSchema = t.Object(
  {
    humanFlaggedRate: t.Union([t.Number({ minimum: 0, maximum: 1 }), t.Null()], {
      description:
        "Share (0-1) of held-out human-written texts of this kind that this sensitivity flagged as AI in the model's own tests (each source family held out, thresholds it did not set); null when not measured.",
    }),
    humanTexts: Int({ minimum: 0, description: 'How many held-out human-written texts the share was measured on.' }),
    upperBound: t.Union([t.Number({ minimum: 0, maximum: 1 }), t.Null()], {
      description:
        'One-sided 95% upper bound (exact binomial, Clopper-Pearson) on the share (0-1) of such human-written texts this sensitivity flags: what "at most" in `text` quotes; null when not measured.',
    }),
    source: StringEnum(['model', 'calibration'] as const, {
      description:
        "Where the figures come from: the model's held-out tests, or the calibration profile's own texts (where the profile applied).",
    }),
    docType: t.Union([StringEnum(DOC_TYPES as readonly string[] as [string, ...string[]]), t.Null()], {
      description:
        "The document type the share was measured on; null when measured over every type (too few texts of this one). Under a profile that applied (`source: calibration`), the text's own type, one of those the profile covers (the share is measured on all of the profile's texts).",
    }),
    words: t.Union(
      [
        t.Object({
          min: Int({ minimum: 0 }),
          max: t.Union([Int({ minimum: 0 }), t.Null()], { description: 'null: no upper bound.' }),
        }),
        t.Null(),
      ],
      { description: 'The length range in words the share was measured on; null when measured over every length.' },
    ),
    otherWriters: t.Optional(
      t.Composite([OtherWritersSchema], {
        description:
          "Only under a profile that applied (`source: calibration`) made with the model's reference writers: what the bar that decided flags of human writers unlike the profile's (reference texts of the kinds it covers), the same figures as the profile's `languages.<lang>.modes.<mode>.otherWriters`. The upper bound holds for texts like the profile's own; these say what the profile does to others.",
      }),
    ),
    text: t.String({
      description:
        'The same in one sentence, in the label language; with `otherWriters`, a second sentence on them (a population’s `label` is quoted as the reference set names it, in English).',
    }),
  },
  {
    title: 'MeasuredError',
    description:
      'The measured error beside the verdict: how often this sensitivity flagged human-written texts of the same kind (language, document type, length) in held-out tests.',
  },
);

const SentenceScoreSchema = t.Object({
  start: Int({ minimum: 0, description: `Start ${OFFSET} (inclusive).` }),
  end: Int({ minimum: 0, description: `End ${OFFSET} (exclusive).` }),
  words: Int({
    minimum: 1,
    description:
      'Words of the sentence as the scorer counts them (a run like `1.2.3` is one): the weight of the sentence in its passage’s mean.',
  }),
  score: Int({
    minimum: 0,
    maximum: 100,
    description:
      'AI likelihood of the sentence, 0-100: the calibrated sentence reading the passages are scored from. Within each passage of `segments`, the word-weighted mean of its sentences’ scores is within 1 point of the passage’s `score`.',
  }),
});

/** What an answer made with a calibration profile says about it (`calibration`). */
export const CalibrationUseSchema = t.Object(
  {
    id: t.Union([t.String(), t.Null()], { description: 'The profile id (null for a profile file the CLI read).' }),
    name: t.String({ description: 'The profile’s name.' }),
    applied: t.Boolean({
      description:
        "True when the profile's threshold decided the verdict; false when the text is outside what it covers, or it is stale: then the stricter of the profile's and the model's thresholds (or, for model_changed, the model's own) decided.",
    }),
    reason: t.Union([StringEnum(PROFILE_REASONS), t.Null()], {
      description:
        "Why it was not applied (null when applied): `model_changed` (made with another model: make it again), `language_not_covered`, `doc_type_not_covered`, `length_not_covered`, `too_few_texts` (too few texts for this sensitivity's promise).",
    }),
    adapted: t.Boolean({
      description:
        "True when the profile applied and its language is adapted to the operator's AI examples: the verdict was decided on the adapted score, which is then the answer's `score` (and `adaptedScore`); `modelScore` is the model's own.",
    }),
    adaptedScore: t.Optional(
      Int({ minimum: 0, maximum: 100, description: 'Only when `adapted`: the adapted score (0-100), the same as the answer’s `score`.' }),
    ),
    modelScore: t.Optional(
      Int({
        minimum: 0,
        maximum: 100,
        description: 'Only when `adapted`: the model’s own score (0-100), what `score` would be without the profile.',
      }),
    ),
    passages: t.Optional(
      t.Literal('model', {
        description:
          'Only when `adapted` and the text reads as several passages: `segments`, `aiShare` and the sentence scores are the model’s own reading (an adaptation reads whole texts), which can differ from the adapted `score`. When the adapted score reaches the bar, the whole-text reading decides (an AI verdict, never `mixed`).',
      }),
    ),
    note: t.Optional(
      t.String({ description: 'With `passages`: one sentence, in the label language, saying why the score and the passages differ.' }),
    ),
  },
  { title: 'CalibrationUse', description: 'The calibration profile this detection named, and whether its threshold decided the verdict.' },
);

/** 200 body of single mode. */
export const DetectResponseSchema = t.Object({
  success: t.Literal(true),
  score: Int({
    minimum: 0,
    maximum: 100,
    description:
      'Calibrated AI likelihood, 0 (human) to 100 (AI). Independent of sensitivity. With a calibration profile adapted to your AI examples applied (`calibration.adapted`), the adapted score the verdict was decided on; `calibration.modelScore` is then the model’s own.',
  }),
  verdict: t.String({ description: 'Localized verdict label.' }),
  docTypeLabel: t.String({ description: 'Localized document type.' }),
  totalDimensions: Int({
    minimum: 0,
    description: "Number of dimensions that can fire for the text's language (`enabled`), out of those listed in `dimensions`.",
  }),
  activeDimensions: Int({ minimum: 0, description: 'Number of dimensions detected (all of them enabled).' }),
  ms_cost: t.Number({ minimum: 0, description: 'Processing time of the analysis in milliseconds, to 3 decimals.' }),
  rate_limit: Int({
    minimum: 0,
    description: "Monthly WORD quota (X-RateLimit-Limit), not a request rate: words per month of the key's plan. The seed's name, kept.",
  }),
  rate_remaining: Int({
    minimum: 0,
    description:
      'Monthly WORD quota (X-RateLimit-Remaining): words left this month after this request, not requests (those are RateLimit).',
  }),
  dimensions: t.Array(DimensionSchema, { description: "Every dimension, in display order, enabled or not for the text's language." }),
  textAnnotations: t.Array(TextAnnotationSchema, { description: 'Flagged sentences.' }),
  bullets: t.Array(BulletSchema, { description: 'Plain-language explanations.' }),
  verdictKey: StringEnum(VERDICT_KEYS, {
    description:
      'Stable verdict id, from most human to most AI. `inconclusive`: not enough evidence either way (a short text, or a score between the human and AI thresholds). `mixed`: human and AI passages.',
  }),
  // Widened to string for the code (Analysis.docType is a string); the document still lists the ids.
  docType: StringEnum(DOC_TYPES as readonly string[] as [string, ...string[]], { description: 'Stable document type id.' }),
  language: StringEnum(TEXT_LANGS, { description: 'Detected language of the text.' }),
  sensitivity: SensitivitySchema,
  probability: t.Number({ minimum: 0, maximum: 1, description: 'Calibrated probability (0-1) that the text is AI-generated.' }),
  words: Int({ minimum: 0, description: 'Words counted and charged (the one word definition).' }),
  segments: t.Array(SegmentSchema, {
    description:
      'Human and AI passages, in text order, not overlapping, covering the text from its first word to its last (empty for text too short to judge). The model’s reading: a text read as one passage has the document’s `score` (the adapted one when `calibration.adapted`); the passages of a text of several are the model’s, never adapted.',
  }),
  aiShare: t.Number({ minimum: 0, maximum: 1, description: 'Words in AI passages over all words, 0 to 1 (3 decimals).' }),
  measuredError: MeasuredErrorSchema,
  calibration: t.Optional(CalibrationUseSchema),
  sentenceScores: t.Array(SentenceScoreSchema, {
    description:
      'Every sentence with at least one word, in text order, with its AI score (a line of symbols alone has none). Empty exactly when `segments` is. Sentence scores say where the text reads as AI; the verdict is decided on the whole text. They follow the passages: in a text read as one passage they are shifted together to average to `score` (the adapted score when `calibration.adapted`).',
  }),
  modelVersion: ModelVersionSchema,
});

/** A validated single-mode request body. */
export interface DetectInput {
  text: string;
  sensitivity: Sensitivity;
  /** A calibration profile id, or null (issue 34). */
  calibration: string | null;
}

/** The 200 body of single mode. */
export type DetectResponse = Static<typeof DetectResponseSchema>;

const checkDetectRequest = compileSchema(DetectRequestSchema);
/**
 * Checks a parsed JSON body against DetectRequestSchema. Any failure about the body's shape or
 * `text` is 400 text_required (checked first, as a client fixes `text` first); otherwise a bad
 * `sensitivity` is 400 invalid_sensitivity.
 */
export function validateDetectBody(body: unknown): DetectInput {
  if (!checkDetectRequest.Check(body)) {
    const paths = [...checkDetectRequest.Errors(body)].map((error) => error.path);
    if (paths.some((path) => path === '' || path.startsWith('/text'))) throw new ApiError('text_required');
    if (paths.some((path) => path.startsWith('/calibration')))
      throw new ApiError('invalid_request', { detail: '"calibration" must be a profile id (a string) or null' });
    throw new ApiError('invalid_sensitivity');
  }
  return { text: body.text, sensitivity: body.sensitivity ?? DEFAULT_SENSITIVITY, calibration: body.calibration ?? null };
}
